package core_test

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wire"
)

// hintFS is memfs with the checked read of a host (core.ReadFileWithin over
// it) and the prefetch hint: it records every hint and every checked read.
type hintFS struct {
	*memfs.FS
	hints [][]string // the paths of each hint
	caps  []int
	reads []string // "within|path|cap" of each checked read
}

func (h *hintFS) ReadFileWithin(within, p string, buf []byte) (int, int64, error) {
	h.reads = append(h.reads, within+"|"+p+"|"+strconv.Itoa(len(buf)))
	return core.ReadFileWithin(h.FS, within, p, buf)
}

func (h *hintFS) PrefetchWithin(paths []byte, cap int) {
	list := strings.Split(string(paths), "\x00")
	if list[len(list)-1] != "" {
		panic("prefetch list does not end with a NUL")
	}
	h.hints = append(h.hints, list[:len(list)-1])
	h.caps = append(h.caps, cap)
}

// containedFS is hintFS without the hint.
type containedFS struct{ *memfs.FS }

func (c containedFS) ReadFileWithin(within, p string, buf []byte) (int, int64, error) {
	return core.ReadFileWithin(c.FS, within, p, buf)
}

// TestPrefetch_hint: before reading any SKILL.md, discovery names in one
// hint exactly the checked reads it then makes (SPEC S44,
// wasm/ABI.md#prefetch_within): the plain folders' SKILL.md of every root
// whose realpath is itself, root after root in the order they are scanned,
// each root's in byte order, each against its own path with the head
// buffer (core.HeadFirstRead). Dot folders, links and files are not named;
// a SKILL.md with a long frontmatter is read again with a larger buffer,
// which no listed read matches. A root under a link is read against its
// realpath, so is not named. The result is the same with and without the
// hint.
func TestPrefetch_hint(t *testing.T) {
	build := func() *memfs.FS {
		fs := memfs.New()
		root := "/home/u/.claude/skills"
		for _, name := range []string{"zeta", "alpha", "my skill", "beta"} {
			must(t, fs.WriteFile(root+"/"+name+"/SKILL.md", skillMD(name, "Use for "+name+" — and more.")))
		}
		long := "---\nname: long\ndescription: " + strings.Repeat("long words ", 1000) + "\n---\nbody\n"
		must(t, fs.WriteFile(root+"/long/SKILL.md", []byte(long)))
		must(t, fs.WriteFile(root+"/.hidden/SKILL.md", skillMD("hidden", "d")))
		must(t, fs.WriteFile(root+"/notes.md", []byte("not a skill")))
		must(t, fs.WriteFile("/home/u/elsewhere/linked/SKILL.md", skillMD("linked", "d")))
		must(t, fs.Symlink("/home/u/elsewhere/linked", root+"/linked"))
		// A root with one plain folder, named in the same hint.
		must(t, fs.WriteFile("/home/u/.agents/skills/solo/SKILL.md", skillMD("solo", "d")))
		// A root reached through a link: its reads are not named.
		must(t, fs.WriteFile("/home/u/store/skills/via-link/SKILL.md", skillMD("via-link", "d")))
		must(t, fs.Symlink("/home/u/store", "/home/u/.codex"))
		must(t, fs.Mkdir("/work/p"))
		return fs
	}
	run := func(fsys core.FS) []byte {
		res, err := core.Discover(context.Background(), fsys, "/work/p", "/home/u", core.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return wire.AppendJSON(nil, res)
	}

	h := &hintFS{FS: build()}
	got := run(h)
	want := run(containedFS{build()})
	if !bytes.Equal(got, want) {
		t.Fatalf("with the hint:\n%s\nwithout:\n%s", got, want)
	}
	if !bytes.Contains(got, []byte(`"my skill"`)) || !bytes.Contains(got, []byte(`"linked"`)) {
		t.Fatalf("skills missing: %s", got)
	}

	if !bytes.Contains(got, []byte(`"via-link"`)) {
		t.Fatalf("the skill under a linked root is missing: %s", got)
	}

	root := "/home/u/.claude/skills/"
	wantHint := []string{root + "alpha/SKILL.md", root + "beta/SKILL.md", root + "long/SKILL.md", root + "my skill/SKILL.md", root + "zeta/SKILL.md",
		"/home/u/.agents/skills/solo/SKILL.md"}
	if len(h.hints) != 1 || !slices.Equal(h.hints[0], wantHint) || h.caps[0] != core.HeadFirstRead {
		t.Fatalf("hints = %q (caps %v), want one: %q with cap %d", h.hints, h.caps, wantHint, core.HeadFirstRead)
	}
	// The checked reads of the plain folders with the head buffer are the
	// hinted ones, in order; the long one is read again with a larger
	// buffer.
	var headReads []string
	longAgain := false
	for _, r := range h.reads {
		f := strings.Split(r, "|")
		if strings.HasPrefix(f[1], root+"linked/") || strings.HasPrefix(f[1], "/home/u/.codex/") {
			continue
		}
		if f[2] == strconv.Itoa(core.HeadFirstRead) {
			headReads = append(headReads, f[1])
			if f[0] != f[1] {
				t.Errorf("read %q: within differs from the path", r)
			}
		} else if f[1] == root+"long/SKILL.md" {
			longAgain = true
		}
	}
	if !slices.Equal(headReads, wantHint) {
		t.Errorf("head reads = %q, want the hint %q", headReads, wantHint)
	}
	if !longAgain {
		t.Errorf("the long frontmatter was not read again with a larger buffer: %q", h.reads)
	}
}
