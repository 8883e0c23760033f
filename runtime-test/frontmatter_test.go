package runtimetest

import (
	"context"
	"strings"
	"testing"

	// TestEmbedded runs the modules this import registers.
	_ "github.com/skilldex/skilldex/embed"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wasmhost"
)

// TestFrontmatterModule_lazy: the engine module reaches the
// complete frontmatter path only through parse_frontmatter, so a workspace
// whose SKILL.md files the fast scanner accepts never loads the frontmatter
// module; one file the scanner declines (or validate) loads it, and its
// result is the native one.
func TestFrontmatterModule_lazy(t *testing.T) {
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	newFS := func() *memfs.FS {
		fsys := memfs.New()
		must(fsys.WriteFile("/p/.xcsh/skills/plain/SKILL.md", []byte("---\nname: plain\ndescription: Plain YAML the scanner reads\ntags: [a, b]\n---\nbody\n")))
		must(fsys.WriteFile("/p/.xcsh/skills/other/SKILL.md", []byte("---\nname: other\ndescription: |\n  A block scalar.\n---\n")))
		return fsys
	}
	discover := []byte(`{"op":"discover","cwd":"/p","home":"/h"}`)

	for _, tc := range []struct {
		name, file, text, request string
		loads                     bool
		want                      string
	}{
		{"scanner only", "", "", string(discover), false, `"name":"plain"`},
		{"an anchor the scanner declines", "/p/.xcsh/skills/anchor/SKILL.md",
			"---\nname: anchor\ndescription: &d Uses an anchor\nsummary: *d\n---\n", string(discover), true, `"summary":"Uses an anchor"`},
		{"invalid YAML: an unquoted colon, which the scanner recovers itself", "/p/.xcsh/skills/broken/SKILL.md",
			"---\nname: broken\ndescription: a: b\n---\n", string(discover), false, `SKILL.md:3: invalid YAML (mapping values are not allowed in this context)`},
		{"invalid YAML the scanner declines", "/p/.xcsh/skills/broken/SKILL.md",
			"---\nname: broken\ndescription: [a, b\n---\n", string(discover), true, `SKILL.md:3: invalid YAML (did not find expected ',' or ']')`},
		{"validate", "", "", `{"op":"validate","dir":"/p/.xcsh/skills/plain"}`, true, `"code":"unknown-key"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wasmhost.Compile(ctx, wasmBytes, hostOpts...)
			must(err)
			defer m.Close(ctx)
			fs := newFS()
			if tc.file != "" {
				must(fs.WriteFile(tc.file, []byte(tc.text)))
			}
			e, err := m.Instantiate(ctx, fs)
			must(err)
			reply, err := e.Call(ctx, []byte(tc.request))
			must(err)
			if !strings.Contains(string(reply), tc.want) {
				t.Errorf("reply lacks %s:\n%s", tc.want, reply)
			}
			if got := m.FrontmatterLoaded(); got != tc.loads {
				t.Errorf("frontmatter module loaded: %v, want %v", got, tc.loads)
			}
		})
	}
}

// TestEmbedded: wasmhost without module bytes runs the modules of package
// embed, and they answer as the modules built from this source (make test
// also compares their bytes: embed-check).
func TestEmbedded(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New()
	for name, text := range map[string]string{
		"plain":  "---\nname: plain\ndescription: Plain YAML\n---\n",
		"anchor": "---\nname: anchor\ndescription: &d Uses an anchor\nsummary: *d\n---\n",
	} {
		if err := fsys.WriteFile("/p/.xcsh/skills/"+name+"/SKILL.md", []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	request := []byte(`{"op":"discover","cwd":"/p","home":"/h"}`)
	embedded, err := wasmhost.New(ctx, nil, fsys)
	if err != nil {
		t.Fatal(err)
	}
	defer embedded.Close(ctx)
	got, err := embedded.Call(ctx, request)
	if err != nil {
		t.Fatal(err)
	}
	built, err := module.Instantiate(ctx, fsys)
	if err != nil {
		t.Fatal(err)
	}
	defer built.Close(ctx)
	want, err := built.Call(ctx, request)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) || !strings.Contains(string(got), `"summary":"Uses an anchor"`) {
		t.Fatalf("the embedded modules answer\n%s\nthe built ones\n%s", got, want)
	}
}
