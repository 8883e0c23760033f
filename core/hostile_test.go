package core_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/fsadaptertest"
	"github.com/skilldex/skilldex/fsadapter/memfs"
)

// Hostile contents: a SKILL.md or a folder name that is not what
// a person writes costs at most that skill, with a warning naming the file
// and the limit, and never its neighbours. Same fixture and runner as
// fault_test.go: each case on memfs and on the OS, byte-identical JSON.

func writeFile(path string, data string) func(t *testing.T, b fsadaptertest.Builder) {
	return func(t *testing.T, b fsadaptertest.Builder) { must(t, b.WriteFile(path, []byte(data))) }
}

func frontmatter(lines ...string) string {
	return "---\n" + strings.Join(lines, "\n") + "\n---\nbody\n"
}

func TestDiscover_hostileContents(t *testing.T) {
	const (
		deep    = 9000
		tooDeep = "frontmatter is nested deeper than 64 levels; flatten it (skill skipped)"
	)
	// A YAML text of exactly MaxFrontmatterBytes: "name: ..\ndescription: ..\nk: xxx\n".
	head := "name: big\ndescription: just fits\nk: "
	exact := head + strings.Repeat("x", core.MaxFrontmatterBytes-len(head)-1) + "\n"
	blockMapping := func(depth int) string { // one-space indents keep it under 64 KiB
		var b strings.Builder
		for i := range depth {
			b.WriteString(strings.Repeat(" ", i) + "a:\n")
		}
		return strings.TrimSuffix(b.String(), "\n") + " x"
	}
	oddName := fRoot + "/bad\xff\xfe-\xc0\xafname"
	quoted := fRoot + "/q\"uote\\back\nline\ttab"
	long := fRoot + "/" + strings.Repeat("l", 255)

	runFaultCases(t, []faultCase{
		// Invalid UTF-8 and odd bytes in folder names (S4, S13, S42).
		{name: "S13 invalid UTF-8 in a folder name", build: writeFile(oddName+"/SKILL.md", frontmatter("description: odd name")),
			loaded: map[string]string{"bad\xff\xfe-\xc0\xafname": "odd name"}},
		{name: "S13 quotes, backslash, newline and tab in a folder name", build: writeFile(quoted+"/SKILL.md", frontmatter("description: quoted")),
			loaded: map[string]string{"q\"uote\\back\nline\ttab": "quoted"}},
		{name: "S13 a 255-byte folder name", build: writeFile(long+"/SKILL.md", frontmatter("description: long")),
			loaded: map[string]string{strings.Repeat("l", 255): "long"}},

		// Invalid UTF-8 and binary contents (S4, S7).
		{name: "S4 invalid UTF-8 in the frontmatter becomes U+FFFD",
			build:  writeFile(fFile, frontmatter("name: utf8-bad", "description: caf\xe9 \xff\xfe \xed\xa0\x80 \xf0\x9f\x98")),
			loaded: map[string]string{"utf8-bad": core.DecodeText([]byte("caf\xe9 \xff\xfe \xed\xa0\x80 \xf0\x9f\x98"))}},
		{name: "S4 binary SKILL.md without frontmatter: a skill named by its folder",
			build:  writeFile(fFile, "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00\x3e\x00\xff\xfe\xfd\n\x00\r\n"),
			loaded: map[string]string{"broken": ""}},
		{name: "S14 binary SKILL.md in a root that requires a description: skipped",
			build:  writeFile(fHome+"/.xcsh/agent/skills/broken/SKILL.md", "\x00\x01\x02\x03\xff"),
			absent: []string{"broken"}},
		{name: "S7 NUL and control bytes inside the frontmatter: recovered, the description's shown as U+FFFD (S45)",
			build:  writeFile(fFile, frontmatter("name: binfm", "description: x\x00y", "\x01\x02: \xff")),
			loaded: map[string]string{"binfm": "x\uFFFDy"}, warn: [][]string{{fFile + ":3:", "invalid YAML"},
				{fFile + ": the description holds control characters"}}},
		{name: "S4 empty SKILL.md: no skill, silently", build: writeFile(fFile, ""),
			absent: []string{"broken"}, silent: []string{fBad}},
		{name: "S4 a BOM and blank lines: not empty, so a skill named by its folder", build: writeFile(fFile, "\xEF\xBB\xBF\r\n\r\n"),
			loaded: map[string]string{"broken": ""}},

		// Size and depth limits (S6).
		{name: "S6 frontmatter of exactly 64 KiB loads", build: writeFile(fFile, "---\n"+exact+"---\n"),
			loaded: map[string]string{"big": "just fits"}},
		{name: "S6 frontmatter over 64 KiB: skipped with a warning", build: writeFile(fFile, "---\n"+exact+"k2: v\n---\n"),
			absent: []string{"big"},
			warn:   [][]string{{fFile + ":1: frontmatter is larger than 64 KiB (65542 bytes)", "(skill skipped)"}}},
		{name: "S6 frontmatter still open after 128 KiB: skipped with a warning",
			build:  writeFile(fFile, "---\nname: open\ndescription: never closed\n"+strings.Repeat("k: v\n", 30000)),
			absent: []string{"open"},
			warn:   [][]string{{fFile + ": frontmatter is not closed within the first 128 KiB"}}},
		{name: "S6 9000-deep flow sequence", build: writeFile(fFile, frontmatter("name: deep", "description: d",
			"a: "+strings.Repeat("[", deep)+strings.Repeat("]", deep))),
			absent: []string{"deep"}, warn: [][]string{{fFile + ":4: " + tooDeep}}},
		{name: "S6 9000-deep flow mapping", build: writeFile(fFile, frontmatter("name: deep", "description: d",
			"a: "+strings.Repeat("{a: ", deep)+"1"+strings.Repeat("}", deep))),
			absent: []string{"deep"}, warn: [][]string{{fFile + ":4: " + tooDeep}}},
		{name: "S6 9000-deep block sequence", build: writeFile(fFile, frontmatter("name: deep", "description: d",
			"a:", strings.Repeat("- ", deep)+"x")),
			absent: []string{"deep"}, warn: [][]string{{fFile + ":", tooDeep}}},
		{name: "S6 300-deep block mapping", build: writeFile(fFile, frontmatter("name: deep", "description: d", blockMapping(300))),
			absent: []string{"deep"}, warn: [][]string{{fFile + ":", tooDeep}}},
		{name: "S6 nesting of exactly 64 levels loads", build: writeFile(fFile, frontmatter("name: deep64", "description: d",
			"a: "+strings.Repeat("[", 63)+strings.Repeat("]", 63))),
			loaded: map[string]string{"deep64": "d"}},
		{name: "S6 an exponential alias graph", build: writeFile(fFile, frontmatter("name: bomb", "description: d",
			`a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`,
			"b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]", "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
			"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]", "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
			"f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]", "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]",
			"h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]", "i: [*h,*h,*h,*h,*h,*h,*h,*h,*h]")),
			loaded: map[string]string{"bomb": "d"}, warn: [][]string{{fFile + ":", "invalid YAML", "alias"}}},

		// Special files on the OS: never opened (S11: SKILL.md must be a regular file).
		{name: "S11 SKILL.md is a FIFO: skipped without blocking", only: "osfs", why: "FIFOs exist on disk only",
			build:  func(t *testing.T, b fsadaptertest.Builder) { must(t, b.Mkdir(fBad)) },
			setup:  func(t *testing.T, e *faultEnv) { must(t, syscall.Mkfifo(e.host(fFile), 0o644)) },
			absent: []string{"broken"}, silent: []string{fBad}},
		{name: "S11 SKILL.md links to /dev/zero: skipped without reading", only: "osfs", why: "devices exist on disk only",
			build:  func(t *testing.T, b fsadaptertest.Builder) { must(t, b.Mkdir(fBad)) },
			setup:  func(t *testing.T, e *faultEnv) { must(t, os.Symlink("/dev/zero", e.host(fFile))) },
			absent: []string{"broken"}, silent: []string{fBad}},
	})
}

// hugeFS serves one virtual file of size bytes (head, then zeros) at
// path, without holding it, over a memfs that has a placeholder there.
type hugeFS struct {
	*memfs.FS
	path string
	head []byte
	size int
}

func (h *hugeFS) bytes(n int) []byte {
	n = min(n, h.size)
	b := make([]byte, n)
	copy(b, h.head)
	return b
}

func (h *hugeFS) ReadFile(p string) ([]byte, error) {
	if p == h.path {
		return h.bytes(h.size), nil
	}
	return h.FS.ReadFile(p)
}

func (h *hugeFS) ReadFilePrefix(p string, n int) ([]byte, bool, error) {
	if p == h.path {
		return h.bytes(n), n >= h.size, nil
	}
	return h.FS.ReadFilePrefix(p, n)
}

// TestDiscover_hugeSkillFile: a 100 MB SKILL.md costs discovery at most
// its read bound, on memfs (a virtual file) and on the OS (a sparse file),
// whatever its first bytes are. Discovery reads growing prefixes (8, 32,
// then 128 KiB) while the frontmatter is still open, so it holds at most
// 128 KiB of one file and reads at most 168 KiB of it in all.
func TestDiscover_hugeSkillFile(t *testing.T) {
	const size = 100 << 20
	const bound = (8 + 32 + 128) << 10
	cases := []struct {
		name, head string
		loaded     string // the skill's name when it loads
		warn       string // else a warning holding this
	}{
		{"frontmatter closed early", "---\nname: huge\ndescription: a 100 MB file\n---\n", "huge", ""},
		{"frontmatter never closed", "---\nname: huge\ndescription: open\n", "", "frontmatter is not closed within the first 128 KiB"},
		// A first line that is not "---" settles S5 at once, however long
		// it is: no frontmatter, a skill named by its folder.
		{"no line break at all", "", "broken", ""},
	}
	for _, tc := range cases {
		for _, kind := range []string{"memfs", "osfs"} {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				t.Parallel()
				var e *faultEnv
				var fsys core.FS
				if kind == "memfs" {
					e = newMemEnv(t)
					buildNeighbours(t, e.b)
					must(t, e.b.WriteFile(fFile, []byte("placeholder")))
					fsys = &hugeFS{FS: e.base.(*memfs.FS), path: fFile, head: []byte(tc.head), size: size}
				} else {
					e = newOSEnv(t)
					buildNeighbours(t, e.b)
					must(t, e.b.WriteFile(fFile, []byte(tc.head)))
					must(t, os.Truncate(e.host(fFile), size)) // sparse: no 100 MB written
					fsys = e.base
				}
				spy := newSpy(fsys)
				start := time.Now()
				res, err := core.Discover(context.Background(), spy, fCwd, fHome, core.DefaultOptions())
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: read %d bytes of SKILL.md files in %v", kind, spy.readBytes, time.Since(start))
				if spy.readBytes > bound+4*1024 { // the neighbours are small
					t.Errorf("read %d bytes, want at most %d", spy.readBytes, bound)
				}
				want := faultCase{}
				if tc.loaded != "" {
					desc := ""
					if lines := strings.Split(tc.head, "\n"); len(lines) > 2 {
						desc = strings.TrimPrefix(lines[2], "description: ")
					}
					want.loaded = map[string]string{tc.loaded: desc}
				} else {
					want.absent = []string{"broken"}
					want.absent = append(want.absent, "huge")
					want.warn = [][]string{{fFile, tc.warn}}
				}
				checkFaultResult(t, want, res)
			})
		}
	}
}

// TestDiscover_10000Entries: 10000 skills in one root are all found, on
// memfs and on the OS.
func TestDiscover_10000Entries(t *testing.T) {
	const n = 10000
	for _, kind := range []string{"memfs", "osfs"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, kind)
			buildNeighbours(t, e.b)
			for i := range n {
				name := fmt.Sprintf("s%05d", i)
				must(t, e.b.WriteFile(fRoot+"/"+name+"/SKILL.md", []byte("---\ndescription: "+name+"\n---\n")))
			}
			start := time.Now()
			res, err := core.Discover(context.Background(), e.base, fCwd, fHome, core.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d skills in %v", kind, len(res.Skills), time.Since(start))
			checkFaultResult(t, faultCase{}, res)
			if len(res.Skills) != n+4 {
				t.Fatalf("%d skills, want %d", len(res.Skills), n+4)
			}
			for i := range n {
				if want := fmt.Sprintf("s%05d", i); res.Skills[i+3].Name != want { // after aaa-, native-, other-good
					t.Fatalf("skill %d is %q, want %q", i+3, res.Skills[i+3].Name, want)
				}
			}
		})
	}
}

// TestDiscover_maxRootEntries: a root with more than core.MaxRootEntries
// entries is cut to the first ones in byte order, with a warning naming
// the root and the bound; the other roots are untouched.
func TestDiscover_maxRootEntries(t *testing.T) {
	for _, kind := range []string{"memfs", "osfs"} {
		t.Run(kind, func(t *testing.T) {
			if kind == "osfs" && testing.Short() {
				t.Skip("-short: writes 50000 files")
			}
			t.Parallel()
			e := newEnv(t, kind)
			buildNeighbours(t, e.b)
			// aaa-good (a neighbour) sorts first; files f00000... fill the
			// root past the bound; zzz-good is entry MaxRootEntries+3.
			for i := range core.MaxRootEntries + 1 {
				if kind == "osfs" {
					f, err := os.Create(filepath.Join(e.dir, fRoot, fmt.Sprintf("f%05d", i)))
					must(t, err)
					f.Close()
				} else {
					must(t, e.b.WriteFile(fmt.Sprintf("%s/f%05d", fRoot, i), nil))
				}
			}
			res, err := core.Discover(context.Background(), e.base, fCwd, fHome, core.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			total := core.MaxRootEntries + 3
			warn := fmt.Sprintf("[Claude Code] Skills directory has %d entries: %s (only the first %d by name are scanned; "+
				"move the rest to another skills directory)", total, fRoot, core.MaxRootEntries)
			if len(res.Warnings) != 1 || res.Warnings[0].Message != warn {
				t.Errorf("warnings %+v, want one: %s", res.Warnings, warn)
			}
			got := strings.Join(names(res.Skills), ",")
			if want := "aaa-good,native-good,other-good"; got != want {
				t.Errorf("skills %s, want %s (zzz-good is past the bound)", got, want)
			}
		})
	}
}

func newEnv(t *testing.T, kind string) *faultEnv {
	if kind == "memfs" {
		return newMemEnv(t)
	}
	return newBulkOSEnv(t)
}

// TestDiscover_longFirstLine: a SKILL.md without frontmatter is a skill
// named by its folder whatever its size (S5): a first line longer than
// the 128 KiB read bound must not turn it into "frontmatter is not
// closed", as it does not for a shorter file with the same start.
func TestDiscover_longFirstLine(t *testing.T) {
	t.Parallel()
	for _, size := range []int{100 << 10, 200 << 10} {
		m := memfs.New()
		buildNeighbours(t, m)
		must(t, m.WriteFile(fFile, bytes.Repeat([]byte("x"), size)))
		res, err := core.Discover(context.Background(), m, fCwd, fHome, core.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			checkFaultResult(t, faultCase{loaded: map[string]string{"broken": ""}}, res)
		})
	}
}
