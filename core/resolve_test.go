package core_test

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wire"
)

// resolveTree is a skill "pdf" with references, links in and out of it, a
// sibling skill and files outside both.
func resolveTree(t testing.TB) (*memfs.FS, []core.Skill) {
	t.Helper()
	fsys := memfs.New()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(fsys.WriteFile("/skills/pdf/SKILL.md", []byte("---\nname: pdf\n---\nbody\n")))
	must(fsys.WriteFile("/skills/pdf/references/tables.md", []byte("tables\n")))
	must(fsys.WriteFile("/skills/pdf/scripts/run.py", []byte("print()\n")))
	must(fsys.WriteFile("/skills/pdf/%2e%2e", []byte("a file named %2e%2e\n")))
	must(fsys.WriteFile("/skills/docx/SKILL.md", []byte("docx\n")))
	must(fsys.WriteFile("/secret.txt", []byte("secret\n")))
	must(fsys.Symlink("/secret.txt", "/skills/pdf/leak.txt"))
	must(fsys.Symlink("/", "/skills/pdf/root"))
	must(fsys.Symlink("../docx", "/skills/pdf/sibling"))
	must(fsys.Symlink("references/tables.md", "/skills/pdf/alias.md"))
	must(fsys.Symlink("loop", "/skills/pdf/loop"))
	must(fsys.Symlink("missing", "/skills/pdf/dangling"))
	skills := []core.Skill{
		{Name: "pdf", FilePath: "/skills/pdf/SKILL.md", BaseDir: "/skills/pdf"},
		{Name: "docx", FilePath: "/skills/docx/SKILL.md", BaseDir: "/skills/docx"},
		{Name: "plug:in", FilePath: "/skills/pdf/SKILL.md", BaseDir: "/skills/pdf"},
	}
	return fsys, skills
}

// TestResolve_errors checks every S29-S31 failure: code and exact message.
func TestResolve_errors(t *testing.T) {
	t.Parallel()
	fsys, skills := resolveTree(t)
	const avail = "\nAvailable: docx, pdf, plug:in" // S50: in S15 order
	tests := []struct {
		name, url, code, msg string
	}{
		{"S29 wrong scheme", "file:///etc/passwd", "INVALID_URL", "Invalid URL: file:///etc/passwd"},
		{"S29 no slashes", "skill:pdf", "INVALID_URL", "Invalid URL: skill:pdf"},
		{"S29 too short", "skill:/", "INVALID_URL", "Invalid URL: skill:/"},
		{"S29 empty", "", "INVALID_URL", "Invalid URL: "},
		{"S29 bad percent", "skill://pdf/%zz", "INVALID_URL", "Invalid URL: skill://pdf/%zz"},
		{"S29 truncated percent", "skill://pdf/a%2", "INVALID_URL", "Invalid URL: skill://pdf/a%2"},
		{"S29 bad percent in name", "skill://p%g0", "INVALID_URL", "Invalid URL: skill://p%g0"},
		{"S31 invalid UTF-8", "skill://pdf/%ff", "INVALID_URL", "Invalid URL: skill://pdf/%ff"},
		{"S31 overlong dot", "skill://pdf/%c0%ae%c0%ae/x", "INVALID_URL", "Invalid URL: skill://pdf/%c0%ae%c0%ae/x"},
		{"S31 invalid UTF-8 in name", "skill://%ff", "INVALID_URL", "Invalid URL: skill://%ff"},
		{"S30 missing name", "skill://", "MISSING_NAME", "skill:// URL requires a skill name: skill://<name>"},
		{"S30 missing name with path", "skill:///etc", "MISSING_NAME", "skill:// URL requires a skill name: skill://<name>"},
		{"S30 missing name before query", "skill://?x", "MISSING_NAME", "skill:// URL requires a skill name: skill://<name>"},
		{"S30 unknown", "skill://xlsx", "UNKNOWN_SKILL", "Unknown skill: xlsx" + avail},
		{"S30 case-sensitive", "skill://PDF", "UNKNOWN_SKILL", "Unknown skill: PDF\nDid you mean: pdf" + avail},
		{"S30 unknown before traversal", "skill://x/../..", "UNKNOWN_SKILL", "Unknown skill: x" + avail},
		{"S31 NUL", "skill://pdf/a%00b", "INVALID_URL", "Invalid URL: skill://pdf/a%00b"},
		{"S31 raw NUL", "skill://pdf/a\x00b", "INVALID_URL", "Invalid URL: skill://pdf/a\x00b"},
		{"S31 NUL before absolute", "skill://pdf//%00", "INVALID_URL", "Invalid URL: skill://pdf//%00"},
		{"S31 absolute", "skill://pdf//etc/passwd", "ABSOLUTE_PATH", "Absolute paths are not allowed in skill:// URLs"},
		{"S31 absolute encoded", "skill://pdf/%2Fetc", "ABSOLUTE_PATH", "Absolute paths are not allowed in skill:// URLs"},
		{"S31 absolute backslash", `skill://pdf/\etc`, "ABSOLUTE_PATH", "Absolute paths are not allowed in skill:// URLs"},
		{"S31 UNC", `skill://pdf/\\srv\share`, "ABSOLUTE_PATH", "Absolute paths are not allowed in skill:// URLs"},
		{"S31 drive", "skill://pdf/C:/x", "ABSOLUTE_PATH", "Absolute paths are not allowed in skill:// URLs"},
		{"S31 drive lower encoded", "skill://pdf/z%3a", "ABSOLUTE_PATH", "Absolute paths are not allowed in skill:// URLs"},
		{"S31 absolute before traversal", "skill://pdf//..", "ABSOLUTE_PATH", "Absolute paths are not allowed in skill:// URLs"},
		{"S31 dotdot", "skill://pdf/../docx/SKILL.md", "PATH_TRAVERSAL", "Path traversal (..) is not allowed in skill:// URLs"},
		{"S31 dotdot alone", "skill://pdf/..", "PATH_TRAVERSAL", "Path traversal (..) is not allowed in skill:// URLs"},
		{"S31 dotdot inside", "skill://pdf/references/../SKILL.md", "PATH_TRAVERSAL", "Path traversal (..) is not allowed in skill:// URLs"},
		{"S31 dotdot encoded", "skill://pdf/%2e%2e/x", "PATH_TRAVERSAL", "Path traversal (..) is not allowed in skill:// URLs"},
		{"S31 dotdot half encoded", "skill://pdf/.%2E/x", "PATH_TRAVERSAL", "Path traversal (..) is not allowed in skill:// URLs"},
		{"S31 dotdot backslash", `skill://pdf/a\..\..\x`, "PATH_TRAVERSAL", "Path traversal (..) is not allowed in skill:// URLs"},
		{"S31 dotdot encoded backslash", "skill://pdf/..%5cx", "PATH_TRAVERSAL", "Path traversal (..) is not allowed in skill:// URLs"},
		{"S31 dotdot double encoded", "skill://pdf/%252e%252e/x", "PATH_TRAVERSAL", "Path traversal (..) is not allowed in skill:// URLs"},
		{"S31 dotdot triple encoded", "skill://pdf/%25252e%25252e", "PATH_TRAVERSAL", "Path traversal (..) is not allowed in skill:// URLs"},
		{"S31 dotdot double encoded with slash", "skill://pdf/%252e%252e%252fx", "PATH_TRAVERSAL", "Path traversal (..) is not allowed in skill:// URLs"},
		{"S31 escape file link", "skill://pdf/leak.txt", "PATH_ESCAPE", "Path traversal is not allowed"},
		{"S31 escape dir link", "skill://pdf/root/secret.txt", "PATH_ESCAPE", "Path traversal is not allowed"},
		{"S31 escape to missing", "skill://pdf/root/nothing", "PATH_ESCAPE", "Path traversal is not allowed"},
		{"S31 escape the directory itself", "skill://pdf/root", "PATH_ESCAPE", "Path traversal is not allowed"},
		{"S31 escape sibling", "skill://pdf/sibling/SKILL.md", "PATH_ESCAPE", "Path traversal is not allowed"},
		{"S31 missing", "skill://pdf/nope.md", "NOT_FOUND", "File not found: /skills/pdf/nope.md"},
		{"S31 cleaned", `skill://pdf/./a//b\c.md`, "NOT_FOUND", "File not found: /skills/pdf/a/b/c.md"},
		{"S56 directory", "skill://pdf/references", "NOT_FOUND", "/skills/pdf/references is a directory; list a skill's files with listFiles"},
		{"S56 directory slash", "skill://pdf/references/", "NOT_FOUND", "/skills/pdf/references is a directory; list a skill's files with listFiles"},
		{"S56 dot", "skill://pdf/.", "NOT_FOUND", "/skills/pdf is a directory; list a skill's files with listFiles"},
		{"S31 loop", "skill://pdf/loop", "NOT_FOUND", "File not found: /skills/pdf/loop"},
		{"S31 dangling", "skill://pdf/dangling", "NOT_FOUND", "File not found: /skills/pdf/dangling"},
		{"S31 under a file", "skill://pdf/SKILL.md/x", "NOT_FOUND", "File not found: /skills/pdf/SKILL.md/x"},
		{"S31 no fallback", "skill://pdf/tables.md", "NOT_FOUND", "File not found: /skills/pdf/tables.md"},
		{"S31 double-encoded slash is a name", "skill://pdf/%252Fetc", "NOT_FOUND", "File not found: /skills/pdf/%2Fetc"},
		{"S31 fullwidth dots", "skill://pdf/%EF%BC%8E%EF%BC%8E", "NOT_FOUND", "File not found: /skills/pdf/\uff0e\uff0e"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := core.Resolve(context.Background(), fsys, tc.url, skills)
			if err == nil {
				t.Fatalf("Resolve(%q) = %+v, want %s", tc.url, r, tc.code)
			}
			var e *core.Error
			if !errors.As(err, &e) {
				t.Fatalf("Resolve(%q): error %T is not *core.Error", tc.url, err)
			}
			if e.Code != tc.code || e.Message != tc.msg {
				t.Errorf("Resolve(%q) = %s %q\nwant %s %q", tc.url, e.Code, e.Message, tc.code, tc.msg)
			}
		})
	}
}

func TestResolve_noSkills(t *testing.T) {
	t.Parallel()
	_, err := core.Resolve(context.Background(), memfs.New(), "skill://pdf", nil)
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.CodeUnknownSkill || e.Message != "Unknown skill: pdf\nAvailable: none" {
		t.Fatalf("S30: got %v", err)
	}
}

// TestResolve_success covers S31 targets that resolve and the S32 fields.
func TestResolve_success(t *testing.T) {
	t.Parallel()
	fsys, skills := resolveTree(t)
	if err := fsys.WriteFile("/skills/pdf/bom.MD", []byte("\xef\xbb\xbfa\r\nb\rc\xff\n")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, url, content, ctype, source string
	}{
		{"S31 empty path", "skill://pdf", "---\nname: pdf\n---\nbody\n", "text/markdown", "/skills/pdf/SKILL.md"},
		{"S29 scheme case", "sKiLl://pdf/", "---\nname: pdf\n---\nbody\n", "text/markdown", "/skills/pdf/SKILL.md"},
		{"S29 query", "skill://pdf?x#y", "---\nname: pdf\n---\nbody\n", "text/markdown", "/skills/pdf/SKILL.md"},
		{"S29 path query", "skill://pdf/references/tables.md?x/../..#..", "tables\n", "text/markdown", "/skills/pdf/references/tables.md"},
		{"S29 encoded slash", "skill://pdf/references%2ftables.md", "tables\n", "text/markdown", "/skills/pdf/references/tables.md"},
		{"S30 colon name", "skill://plug:in/scripts/run.py", "print()\n", "text/plain", "/skills/pdf/scripts/run.py"},
		{"S30 encoded colon", "skill://plug%3Ain/scripts/run.py", "print()\n", "text/plain", "/skills/pdf/scripts/run.py"},
		{"S31 backslash separator", `skill://pdf/references\tables.md`, "tables\n", "text/markdown", "/skills/pdf/references/tables.md"},
		{"S31 link inside", "skill://pdf/alias.md", "tables\n", "text/markdown", "/skills/pdf/alias.md"},
		{"S31 dot segments", "skill://pdf/./references/./tables.md", "tables\n", "text/markdown", "/skills/pdf/references/tables.md"},
		{"S31 literal %2e%2e file", "skill://pdf/%252e%252e", "", "", ""}, // refused: see below
		{"S32 BOM CRLF invalid UTF-8", "skill://pdf/bom.MD", "a\nb\nc\uFFFD\n", "text/markdown", "/skills/pdf/bom.MD"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := core.Resolve(context.Background(), fsys, tc.url, skills)
			if tc.source == "" {
				// A segment that would decode to ".." is refused even when
				// a file of that literal name exists (double encoding).
				var e *core.Error
				if !errors.As(err, &e) || e.Code != core.CodePathTraversal {
					t.Fatalf("Resolve(%q) = %v, %v; want PATH_TRAVERSAL", tc.url, r, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tc.url, err)
			}
			want := core.Resource{URL: tc.url, Content: tc.content, ContentType: tc.ctype, Size: len(tc.content), SourcePath: tc.source}
			if *r != want {
				t.Errorf("Resolve(%q) =\n%+v\nwant\n%+v", tc.url, *r, want)
			}
		})
	}
}

func TestResolve_readFault(t *testing.T) {
	t.Parallel()
	fsys, skills := resolveTree(t)
	f := faultFS{FS: fsys, op: "readFile", path: "/skills/pdf/scripts/run.py", code: core.EACCES}
	_, err := core.Resolve(context.Background(), f, "skill://pdf/scripts/run.py", skills)
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.CodeNotFound || e.Message != "Failed to read file: /skills/pdf/scripts/run.py (EACCES)" {
		t.Fatalf("got %v", err)
	}
}

func TestResource_AppendJSON(t *testing.T) {
	t.Parallel()
	r := core.Resource{URL: "skill://a", Content: "x\n\"<&>", ContentType: "text/plain", Size: 6, SourcePath: "/a/SKILL.md"}
	got := string(wire.AppendJSON([]byte("prefix:"), &r))
	want := `prefix:{"url":"skill://a","content":"x\n\"<&>","contentType":"text/plain","size":6,"sourcePath":"/a/SKILL.md"}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestListFiles covers S33: sorted relative paths, hidden entries skipped,
// depth 8, links followed only inside the skill, each directory entered
// once by realpath (S45).
func TestListFiles(t *testing.T) {
	t.Parallel()
	fsys, skills := resolveTree(t)
	for p, data := range map[string]string{
		"/skills/pdf/.env":                     "x",
		"/skills/pdf/.git/HEAD":                "x",
		"/skills/pdf/refs/.hidden.md":          "x",
		"/skills/pdf/B.md":                     "x",
		"/skills/pdf/a/b/c/d/e/f/g/h.md":       "x",
		"/skills/pdf/a/b/c/d/e/f/g/h/i.md":     "x",
		"/skills/pdf/back\\slash.md":           "x",
		"/skills/pdf/references/deep/more.txt": "x",
	} {
		if err := fsys.WriteFile(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := fsys.Symlink("..", "/skills/pdf/references/up"); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Symlink("references", "/skills/pdf/refs2"); err != nil {
		t.Fatal(err)
	}
	got, err := core.ListFiles(context.Background(), fsys, "pdf", skills)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"%2e%2e", "B.md", "SKILL.md", "a/b/c/d/e/f/g/h.md", "alias.md",
		"references/deep/more.txt", "references/tables.md",
		"scripts/run.py", // refs2 leads to references, already walked (S45)
	}
	if got.Name != "pdf" || got.BaseDir != "/skills/pdf" || !slices.Equal(got.Files, want) {
		t.Errorf("ListFiles = %+v\nwant files %q", got, want)
	}
	if j := string(wire.AppendJSON(nil, got)); !strings.HasPrefix(j, `{"name":"pdf","baseDir":"/skills/pdf","files":["%2e%2e","B.md",`) {
		t.Errorf("JSON %s", j)
	}
}

func TestListFiles_errors(t *testing.T) {
	t.Parallel()
	fsys, skills := resolveTree(t)
	skills = append(skills, core.Skill{Name: "gone", FilePath: "/nowhere/SKILL.md", BaseDir: "/nowhere"})
	for _, tc := range []struct{ name, code, msg string }{
		{"", core.CodeMissingName, "listFiles requires a skill name"},
		{"nope", core.CodeUnknownSkill, "Unknown skill: nope\nDid you mean: gone\nAvailable: docx, gone, pdf, plug:in"},
		{"gone", core.CodeNotFound, "File not found: /nowhere"},
	} {
		_, err := core.ListFiles(context.Background(), fsys, tc.name, skills)
		var e *core.Error
		if !errors.As(err, &e) || e.Code != tc.code || e.Message != tc.msg {
			t.Errorf("ListFiles(%q) = %v, want %s %q", tc.name, err, tc.code, tc.msg)
		}
	}
}

// faultFS fails one operation on one path, like the corpus's fault lines.
type faultFS struct {
	core.FS
	op, path, code string
}

func (f faultFS) fail(op, p string) error {
	if op == f.op && p == f.path {
		return &core.PathError{Op: op, Path: p, Code: f.code}
	}
	return nil
}

func (f faultFS) ReadDir(p string) ([]core.DirEntry, error) {
	if err := f.fail("readDir", p); err != nil {
		return nil, err
	}
	return f.FS.ReadDir(p)
}

func (f faultFS) Stat(p string) (core.FileType, error) {
	if err := f.fail("stat", p); err != nil {
		return 0, err
	}
	return f.FS.Stat(p)
}

func (f faultFS) ReadFile(p string) ([]byte, error) {
	if err := f.fail("readFile", p); err != nil {
		return nil, err
	}
	return f.FS.ReadFile(p)
}

func (f faultFS) Realpath(p string) (string, error) {
	if err := f.fail("realpath", p); err != nil {
		return "", err
	}
	return f.FS.Realpath(p)
}

// specCodes are the error codes Resolve may return (S29-S31).
var specCodes = map[string]bool{
	core.CodeInvalidURL: true, core.CodeMissingName: true, core.CodeUnknownSkill: true,
	core.CodeAbsolutePath: true, core.CodePathTraversal: true, core.CodePathEscape: true, core.CodeNotFound: true,
}

// FuzzResolve checks the S31 guarantee with an oracle: every success reads
// a file whose realpath lies inside the realpath of the skill's folder, and
// every failure is a *core.Error with one of the SPEC codes. The tree holds
// links out of the skill, loops and chains, so the fuzzer can try them.
func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"skill://pdf", "skill://pdf/references/tables.md", "skill://pdf/../docx/SKILL.md",
		"skill://pdf/%2e%2e/%2e%2e/secret.txt", "skill://pdf/%252e%252e/secret.txt", "skill://pdf/.%2e/x",
		"skill://pdf/%2fsecret.txt", "skill://pdf/%5c..%5csecret.txt", `skill://pdf/..\..\secret.txt`,
		"skill://pdf/C:/secret.txt", "skill://pdf/c%3a%5csecret.txt", `skill://pdf/\\server\share`,
		"skill://pdf/%5c%5cserver%5cshare", "skill://pdf/SKILL.md%00.txt", "skill://pdf/a\x00",
		"skill://pdf/%c0%ae%c0%ae/secret.txt", "skill://pdf/%e0%80%ae%e0%80%ae/secret.txt",
		"skill://pdf/\uff0e\uff0e/secret.txt", "skill://pdf/%E2%80%A4%E2%80%A4/secret.txt",
		"skill://pdf/" + strings.Repeat("a/", 2000) + "x", "skill://pdf/" + strings.Repeat("%2e%2e/", 100),
		"skill://pdf/leak.txt", "skill://pdf/root/secret.txt", "skill://pdf/sibling/SKILL.md",
		"skill://pdf/chain1/secret.txt", "skill://pdf/loop", "skill://pdf/loopa/x", "skill://pdf/alias.md",
		"skill://pdf/inner/../../secret.txt", "skill://pdf//etc/passwd", "skill:///etc/passwd", "skill://",
		"SKILL://pdf?#", "skill://pdf/%", "skill://pdf/%zz", "skill://plug:in/./x",
	} {
		f.Add(seed)
	}
	fsys, skills := resolveTree(f)
	for _, l := range [][2]string{
		{"chain2", "/skills/pdf/chain1"}, {"/", "/skills/pdf/chain2"},
		{"loopb", "/skills/pdf/loopa"}, {"loopa", "/skills/pdf/loopb"},
		{"references/..", "/skills/pdf/inner"},
	} {
		if err := fsys.Symlink(l[0], l[1]); err != nil {
			f.Fatal(err)
		}
	}
	realBase := map[string]string{}
	for _, s := range skills {
		r, err := fsys.Realpath(s.BaseDir)
		if err != nil {
			f.Fatal(err)
		}
		realBase[s.Name] = r
	}
	f.Fuzz(func(t *testing.T, url string) {
		r, err := core.Resolve(context.Background(), fsys, url, skills)
		if err != nil {
			var e *core.Error
			if !errors.As(err, &e) || !specCodes[e.Code] {
				t.Fatalf("Resolve(%q): %v is not a SPEC error", url, err)
			}
			return
		}
		real, rerr := fsys.Realpath(r.SourcePath)
		if rerr != nil {
			t.Fatalf("Resolve(%q) succeeded with %q, which has no realpath: %v", url, r.SourcePath, rerr)
		}
		// SourcePath is the lexical target, under the requested skill's
		// baseDir (no two skills' folders nest in this tree).
		name := ""
		for _, s := range skills {
			if strings.HasPrefix(r.SourcePath, s.BaseDir+"/") {
				name = s.Name
				break
			}
		}
		base := realBase[name]
		if name == "" || !(real == base || strings.HasPrefix(real, base+"/")) {
			t.Fatalf("Resolve(%q) read %q (realpath %q) outside the skill's realpath %q", url, r.SourcePath, real, base)
		}
		if path.Clean(r.SourcePath) != r.SourcePath {
			t.Fatalf("Resolve(%q): sourcePath %q is not clean", url, r.SourcePath)
		}
	})
}
