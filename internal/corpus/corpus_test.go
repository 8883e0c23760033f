package corpus

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
)

func TestLoadDir(t *testing.T) {
	t.Parallel()
	cases, err := LoadDir("testdata/ok")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[0].Name != "basic" || cases[1].Name != "nowant" {
		t.Fatalf("cases = %v, want basic and nowant in that order", cases)
	}
	c := cases[0]
	if want := []string{"S11", "S12"}; !reflect.DeepEqual(c.Rules, want) {
		t.Errorf("Rules = %q, want %q", c.Rules, want)
	}
	if want := []Fault{{"readFile", "/home/u/.xcsh/skills/b/SKILL.md", "EACCES", 4}}; !reflect.DeepEqual(c.Faults, want) {
		t.Errorf("Faults = %+v, want %+v", c.Faults, want)
	}
	if got, want := string(c.Request), `{"op":"discover","cwd":"/work/proj","home":"/home/u"}`+"\n"; got != want {
		t.Errorf("Request = %q, want %q", got, want)
	}
	if got, want := string(c.Want), "{\n  \"skills\": []\n}\n"; got != want {
		t.Errorf("Want = %q, want %q", got, want)
	}
	wantEntries := []Entry{
		{Path: "/home/u/.xcsh/skills/a/SKILL.md", Type: core.TypeFile, Data: []byte("---\nname: a\n---\nbody\n"), Line: 11},
		{Path: "/home/u/.xcsh/skills/b/SKILL.md", Type: core.TypeFile, Data: nil, Line: 16},
		{Path: "/home/u/.xcsh/skills/empty", Type: core.TypeDir, Line: 17},
		{Path: "/home/u/.xcsh/skills/rel", Type: core.TypeSymlink, Target: "a", Line: 18},
		{Path: "/home/u/.xcsh/skills/abs", Type: core.TypeSymlink, Target: "/shared/c", Line: 19},
		{Path: "/shared/c/SKILL.md", Type: core.TypeFile, Data: []byte("c\n"), Line: 20},
	}
	if entriesNoLines(c.Entries) != entriesNoLines(wantEntries) {
		t.Errorf("Entries =\n%s\nwant\n%s", entriesNoLines(c.Entries), entriesNoLines(wantEntries))
	}
	for i := range min(len(c.Entries), len(wantEntries)) {
		if c.Entries[i].Line != wantEntries[i].Line {
			t.Errorf("%s: Line = %d, want %d", c.Entries[i].Path, c.Entries[i].Line, wantEntries[i].Line)
		}
	}
	if cases[1].Want != nil {
		t.Errorf("nowant: Want = %q, want nil", cases[1].Want)
	}
}

// TestParse_malformed: every malformed case is an error naming the file and
// the line at fault.
func TestParse_malformed(t *testing.T) {
	t.Parallel()
	const req = "-- request.json --\n{}\n"
	tests := []struct {
		name, data, want string
	}{
		{"no rules", "text\n" + req, "x.txtar:1: missing rules:"},
		{"empty rules", "rules:\n" + req, "x.txtar:1: rules: names no rule"},
		{"bad rule", "text\nrules: S1 11\n" + req, `x.txtar:2: rules: "11"`},
		{"two rules lines", "rules: S1\nrules: S2\n" + req, "x.txtar:2: second rules:"},
		{"fault arity", "rules: S1\nfault: stat /x\n" + req, "x.txtar:2: fault: want"},
		{"fault op", "rules: S1\nfault: open /x EIO\n" + req, `x.txtar:2: fault: unknown op "open"`},
		{"fault relative", "rules: S1\nfault: stat x EIO\n" + req, `x.txtar:2: fault: path "x"`},
		{"fault unclean", "rules: S1\nfault: stat /x/../y EIO\n" + req, `x.txtar:2: fault: path "/x/../y"`},
		{"fault code", "rules: S1\nfault: stat /x enoent\n" + req, `x.txtar:2: fault: "enoent"`},
		{"no request", "rules: S1\n-- a --\nx\n", "x.txtar:1: missing -- request.json --"},
		{"bad request", "rules: S1\n-- request.json --\n{\n", "x.txtar:3: request.json is not valid JSON"},
		{"repeated section", "rules: S1\n" + req + "-- a --\n-- a --\n", `x.txtar:5: section "a" repeats line 4`},
		{"absolute entry", "rules: S1\n" + req + "-- /a --\n", `x.txtar:4: path "/a" must be relative`},
		{"dotdot entry", "rules: S1\n" + req + "-- ../a --\n", `x.txtar:4: path "../a"`},
		{"unclean entry", "rules: S1\n" + req + "-- a//b --\n", `x.txtar:4: path "a//b"`},
		{"empty link target", "rules: S1\n" + req + "-- a ->  --\n", `x.txtar:4: symlink "a" has an empty target`},
		{"link with data", "rules: S1\n" + req + "-- a -> b --\nx\n", `x.txtar:4: symlink section "a -> b" must be empty`},
		{"dir with data", "rules: S1\n" + req + "-- a/ --\nx\n", `x.txtar:4: dir section "a/" must be empty`},
		{"under a file", "rules: S1\n" + req + "-- a --\nx\n-- a/b --\n", "x.txtar:6: /a/b is under /a, which is a file"},
		{"under a link", "rules: S1\n" + req + "-- a -> c --\n-- a/b --\n", "x.txtar:5: /a/b is under /a, which is a symlink"},
		{"file over dir", "rules: S1\n" + req + "-- a/b --\n-- a --\n", "x.txtar:5: /a is given twice (as a dir and a file)"},
		{"link and file", "rules: S1\n" + req + "-- a -> b --\n-- a --\n", "x.txtar:5: /a is given twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("x.txtar", []byte(tc.data))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v, want prefix %q", err, tc.want)
			}
		})
	}
}

// TestParse_dirTwice: an explicit directory may also be the parent of
// other entries, in either order.
func TestParse_dirTwice(t *testing.T) {
	t.Parallel()
	_, err := Parse("x.txtar", []byte("rules: S1\n-- request.json --\n{}\n-- a/b --\n-- a/ --\n-- c/ --\n-- c/d/ --\n"))
	if err != nil {
		t.Fatal(err)
	}
}

// checkTree checks the basic case's tree and fault through fsys (S2).
func checkTree(t *testing.T, fsys core.FS) {
	t.Helper()
	const skills = "/home/u/.xcsh/skills"
	ents, err := fsys.ReadDir(skills)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]core.FileType{}
	for _, e := range ents {
		got[e.Name] = e.Type
	}
	want := map[string]core.FileType{"a": core.TypeDir, "b": core.TypeDir, "empty": core.TypeDir, "rel": core.TypeSymlink, "abs": core.TypeSymlink}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadDir = %v, want %v", got, want)
	}
	if ents, err := fsys.ReadDir(skills + "/empty"); err != nil || len(ents) != 0 {
		t.Errorf("ReadDir(empty) = %v, %v; want no entries", ents, err)
	}
	if data, err := fsys.ReadFile(skills + "/abs/SKILL.md"); err != nil || string(data) != "c\n" {
		t.Errorf("ReadFile(abs/SKILL.md) = %q, %v; want the absolute link followed within the case root", data, err)
	}
	if real, err := fsys.Realpath(skills + "/rel"); err != nil || real != skills+"/a" {
		t.Errorf("Realpath(rel) = %q, %v", real, err)
	}
	if real, err := fsys.Realpath(skills + "/abs"); err != nil || real != "/shared/c" {
		t.Errorf("Realpath(abs) = %q, %v", real, err)
	}
	if data, err := fsys.ReadFile(skills + "/b/SKILL.md"); core.POSIXCode(err) != "EACCES" {
		t.Errorf("ReadFile(b/SKILL.md) = %q, %v; want the injected EACCES", data, err)
	}
	pr, ok := fsys.(core.PrefixReader)
	if !ok {
		t.Fatal("the fault wrapper hides PrefixReader")
	}
	if _, _, err := pr.ReadFilePrefix(skills+"/b/SKILL.md", 10); core.POSIXCode(err) != "EACCES" {
		t.Errorf("ReadFilePrefix(b/SKILL.md): %v; want the injected EACCES", err)
	}
	if typ, err := fsys.Stat(skills + "/b/SKILL.md"); err != nil || typ != core.TypeFile {
		t.Errorf("Stat(b/SKILL.md) = %v, %v; a readFile fault must not touch stat", typ, err)
	}
	if data, _, err := pr.ReadFilePrefix(skills+"/a/SKILL.md", 3); err != nil || string(data) != "---" {
		t.Errorf("ReadFilePrefix(a/SKILL.md, 3) = %q, %v", data, err)
	}
}

func loadBasic(t *testing.T) *Case {
	t.Helper()
	c, err := LoadFile("testdata/ok/basic.txtar")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCase_MemFS(t *testing.T) {
	t.Parallel()
	checkTree(t, loadBasic(t).MemFS())
}

func TestCase_OSFS(t *testing.T) {
	t.Parallel()
	fsys, err := loadBasic(t).OSFS(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, fsys)
}

func TestWithFaults_allOps(t *testing.T) {
	t.Parallel()
	c, err := Parse("x.txtar", []byte("rules: S1\n"+
		"fault: readDir /d ENOTDIR\nfault: stat /d EIO\nfault: lstat /d ELOOP\nfault: realpath /d EACCES\nfault: readFile /f EISDIR\n"+
		"-- request.json --\n{}\n-- d/ --\n-- f --\nx\n"))
	if err != nil {
		t.Fatal(err)
	}
	fsys := c.MemFS()
	_, err1 := fsys.ReadDir("/d")
	_, err2 := fsys.Stat("/d")
	_, err3 := fsys.Lstat("/d")
	_, err4 := fsys.Realpath("/d")
	_, err5 := fsys.ReadFile("/f")
	got := []string{core.POSIXCode(err1), core.POSIXCode(err2), core.POSIXCode(err3), core.POSIXCode(err4), core.POSIXCode(err5)}
	if want := []string{"ENOTDIR", "EIO", "ELOOP", "EACCES", "EISDIR"}; !reflect.DeepEqual(got, want) {
		t.Errorf("codes = %q, want %q", got, want)
	}
	// Exact paths only: a fault on /d says nothing about /d/x or /.
	if _, err := fsys.Stat("/"); err != nil {
		t.Errorf("Stat(/) = %v", err)
	}
	var pe *core.PathError
	if _, err := fsys.Realpath("/d"); !asPathError(err, &pe) || pe.Op != "realpath" || pe.Path != "/d" {
		t.Errorf("Realpath(/d) error = %#v, want a PathError for op realpath on /d", err)
	}
}

func asPathError(err error, pe **core.PathError) bool {
	p, ok := err.(*core.PathError)
	*pe = p
	return ok
}

// TestWithFaults_noPrefixReader: the wrapper offers PrefixReader only when
// the wrapped FS does.
func TestWithFaults_noPrefixReader(t *testing.T) {
	t.Parallel()
	type plain struct{ core.FS }
	fsys := WithFaults(plain{loadBasic(t).MemFS()}, []Fault{{Op: "stat", Path: "/x", Code: "EIO"}})
	if _, ok := fsys.(core.PrefixReader); ok {
		t.Error("wrapper of an FS without PrefixReader implements it")
	}
}

func TestCase_SetWant(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"basic.txtar", "nowant.txtar"} {
		data, err := os.ReadFile(filepath.Join("testdata/ok", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	pretty := Indent([]byte(`{"skills":[{"name":"a"}],"warnings":[]}`))
	for _, c := range cases {
		if err := c.SetWant(pretty); err != nil {
			t.Fatal(err)
		}
		again, err := LoadFile(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Want, pretty) {
			t.Errorf("%s: Want after SetWant = %q, want %q", c.Name, again.Want, pretty)
		}
		if entriesNoLines(again.Entries) != entriesNoLines(c.Entries) || !bytes.Equal(again.Request, c.Request) || again.Comment != c.Comment {
			t.Errorf("%s: SetWant changed more than want.json", c.Name)
		}
		if again.Archive.Files[1].Name != WantSection {
			t.Errorf("%s: want.json is section %q, want it right after request.json", c.Name, again.Archive.Files[1].Name)
		}
	}
	// Rewriting a file with the want it already has changes no byte.
	orig, _ := os.ReadFile(filepath.Join(dir, "basic.txtar"))
	if err := cases[0].SetWant(pretty); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "basic.txtar")); !bytes.Equal(now, orig) {
		t.Errorf("SetWant with the same want rewrote the file:\n%s\nwas\n%s", now, orig)
	}
}

func TestIndent(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		// JSON.stringify(x, null, 2) spelling, including empty containers.
		{`{"a":[],"b":{},"c":[1,{"d":null}],"e":"x\u003c"}`, "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    {\n      \"d\": null\n    }\n  ],\n  \"e\": \"x\\u003c\"\n}\n"},
		{`null`, "null\n"},
		{`{bad`, "{bad\n"},
	}
	for _, tc := range tests {
		if got := string(Indent([]byte(tc.in))); got != tc.want {
			t.Errorf("Indent(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func entriesNoLines(es []Entry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s %v %q %q\n", e.Path, e.Type, e.Data, e.Target)
	}
	return b.String()
}
