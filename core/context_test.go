package core_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wire"
)

// TestContextFiles covers S38 and S39 on small trees; the conformance
// corpus has the rest.
func TestContextFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		files     map[string]string // "" content with a trailing "/" name is a directory
		cwd, home string
		cfg       string
		want      []string // "path depth content"
	}{
		{
			name: "S38 S39 repository walk and order",
			files: map[string]string{
				"/w/.git/":                    "",
				"/XCSH.md":                    "above repo",
				"/w/XCSH.md":                  "root",
				"/w/a/.xcsh/XCSH.md":          "a cfg",
				"/w/a/XCSH.md":                "a standalone",
				"/w/a/b/XCSH.md":              "b",
				"/home/u/.xcsh/agent/XCSH.md": "user",
			},
			cwd: "/w/a/b", home: "/home/u",
			want: []string{"/home/u/.xcsh/agent/XCSH.md - user", "/w/XCSH.md 2 root", "/w/a/.xcsh/XCSH.md 1 a cfg", "/w/a/b/XCSH.md 0 b"},
		},
		{
			name:  "S38 hidden folder and custom cfg",
			files: map[string]string{"/w/.git/": "", "/w/.h/XCSH.md": "hidden", "/w/.h/.pi/XCSH.md": "pi", "/w/XCSH.md": "w"},
			cwd:   "/w/.h", home: "/home/u", cfg: ".pi",
			want: []string{"/w/XCSH.md 1 w", "/w/.h/.pi/XCSH.md 0 pi"},
		},
		{
			name:  "S39 dedupe keeps the later copy",
			files: map[string]string{"/w/.git/": "", "/w/XCSH.md": "same", "/w/a/XCSH.md": "same", "/home/u/.xcsh/agent/XCSH.md": "same"},
			cwd:   "/w/a", home: "/home/u",
			want: []string{"/w/a/XCSH.md 0 same"},
		},
		{
			name:  "S38 blank files skipped",
			files: map[string]string{"/w/.git/": "", "/w/.xcsh/XCSH.md": " \n\t", "/w/XCSH.md": "w"},
			cwd:   "/w", home: "/home/u",
			want: []string{"/w/XCSH.md 0 w"},
		},
		{
			name:  "S38 cwd is home",
			files: map[string]string{"/home/u/XCSH.md": "not project", "/home/u/.xcsh/agent/XCSH.md": "user"},
			cwd:   "/home/u/", home: "/home/u",
			want: []string{"/home/u/.xcsh/agent/XCSH.md - user"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fsys := memfs.New()
			for p, c := range tc.files {
				var err error
				if strings.HasSuffix(p, "/") {
					err = fsys.Mkdir(p)
				} else {
					err = fsys.WriteFile(p, []byte(c))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			r, err := core.ContextFiles(context.Background(), fsys, tc.cwd, tc.home, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range r.Files {
				d := "-"
				if f.Depth >= 0 {
					d = fmt.Sprint(f.Depth)
				}
				if (f.Depth < 0) != (f.Level == "user") {
					t.Errorf("%s: level %s with depth %d", f.Path, f.Level, f.Depth)
				}
				got = append(got, f.Path+" "+d+" "+f.Content)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestContextFiles_depthBound: depth 20 is read, depth 21 is not (S38).
func TestContextFiles_depthBound(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	cwd := ""
	for i := 0; i <= 25; i++ {
		cwd += fmt.Sprintf("/d%d", i)
	}
	p := cwd
	for depth := 0; depth <= 25; depth++ {
		if err := fsys.WriteFile(p+"/XCSH.md", []byte(fmt.Sprint("depth ", depth))); err != nil {
			t.Fatal(err)
		}
		p = p[:strings.LastIndexByte(p, '/')]
	}
	r, err := core.ContextFiles(context.Background(), fsys, cwd, "/home/u", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != 21 || r.Files[0].Depth != 20 || r.Files[0].Content != "depth 20" || r.Files[20].Depth != 0 {
		t.Errorf("got %d files, first %+v", len(r.Files), r.Files[0])
	}
}

func TestContextFiles_errorsAndJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range [][2]string{{"rel", "/h"}, {"/c", "h"}} {
		_, err := core.ContextFiles(context.Background(), memfs.New(), tc[0], tc[1], "")
		var e *core.Error
		if !errors.As(err, &e) || e.Code != core.CodeInvalidArgument {
			t.Errorf("%v: %v", tc, err)
		}
	}
	r := &core.ContextResult{Files: []core.ContextFile{
		{Path: "/h/.xcsh/agent/XCSH.md", Content: "u\n", Level: "user", Depth: -1},
		{Path: "/w/XCSH.md", Content: "w", Level: "project", Depth: 3},
	}}
	want := `{"files":[{"path":"/h/.xcsh/agent/XCSH.md","content":"u\n","level":"user","depth":null},` +
		`{"path":"/w/XCSH.md","content":"w","level":"project","depth":3}]}`
	if got := string(wire.AppendJSON(nil, r)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
