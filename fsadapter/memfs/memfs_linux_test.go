//go:build linux

package memfs_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/fsadaptertest"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/fsadapter/osfs"
)

// TestMemFS_agreesWithLinux runs every operation on every fixture path (and
// paths below them) over memfs and over the fixture written to disk, and
// requires identical results: memfs is a model of the Linux kernel (S2).
func TestMemFS_agreesWithLinux(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := fsadaptertest.Build(fsadaptertest.OSBuilder(dir), "/"); err != nil {
		t.Fatal(err)
	}
	ofs, err := osfs.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	mfs := memfs.New()
	if err := fsadaptertest.Build(mfs, "/"); err != nil {
		t.Fatal(err)
	}
	paths := []string{"/", "/missing", "/chain"}
	for _, e := range fsadaptertest.Fixture {
		paths = append(paths, e.Path, e.Path+"/x", e.Path+"/c.txt", e.Path+"/b", e.Path+"/parent/b/c.txt")
	}
	for _, p := range paths {
		if got, want := describe(mfs, p), describe(ofs, p); got != want {
			t.Errorf("%s:\nmemfs %s\nlinux %s", p, got, want)
		}
	}
}

func describe(fsys core.FS, p string) string {
	var b bytes.Buffer
	code := func(err error) string {
		if err == nil {
			return "ok"
		}
		return core.POSIXCode(err)
	}
	st, err := fsys.Stat(p)
	fmt.Fprintf(&b, "stat=%v/%s ", st, code(err))
	lt, err := fsys.Lstat(p)
	fmt.Fprintf(&b, "lstat=%v/%s ", lt, code(err))
	rp, err := fsys.Realpath(p)
	fmt.Fprintf(&b, "realpath=%q/%s ", rp, code(err))
	data, err := fsys.ReadFile(p)
	fmt.Fprintf(&b, "read=%d/%s ", len(data), code(err))
	pre, complete, err := fsys.(core.PrefixReader).ReadFilePrefix(p, 5)
	fmt.Fprintf(&b, "prefix=%q,%v/%s ", pre, complete, code(err))
	ents, err := fsys.ReadDir(p)
	sortEntries(ents)
	fmt.Fprintf(&b, "readDir=%v/%s", ents, code(err))
	return b.String()
}

func sortEntries(es []core.DirEntry) {
	for i := range es {
		for j := i + 1; j < len(es); j++ {
			if es[j].Name < es[i].Name {
				es[i], es[j] = es[j], es[i]
			}
		}
	}
}
