package fsadaptertest_test

import (
	"fmt"
	"math/rand"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/fsadaptertest"
	"github.com/skilldex/skilldex/fsadapter/memfs"
)

func fixture(t *testing.T) *memfs.FS {
	t.Helper()
	m := memfs.New()
	if err := fsadaptertest.Build(m, "/"); err != nil {
		t.Fatal(err)
	}
	return m
}

// wrapper forwards to an FS, with any method overridable.
type wrapper struct {
	core.FS
	readDir  func(p string) ([]core.DirEntry, error)
	stat     func(p string) (core.FileType, error)
	readFile func(p string) ([]byte, error)
	realpath func(p string) (string, error)
}

func (w *wrapper) ReadDir(p string) ([]core.DirEntry, error) {
	if w.readDir != nil {
		return w.readDir(p)
	}
	return w.FS.ReadDir(p)
}

func (w *wrapper) Stat(p string) (core.FileType, error) {
	if w.stat != nil {
		return w.stat(p)
	}
	return w.FS.Stat(p)
}

func (w *wrapper) ReadFile(p string) ([]byte, error) {
	if w.readFile != nil {
		return w.readFile(p)
	}
	return w.FS.ReadFile(p)
}

func (w *wrapper) Realpath(p string) (string, error) {
	if w.realpath != nil {
		return w.realpath(p)
	}
	return w.FS.Realpath(p)
}

// prefixWrapper adds a ReadFilePrefix.
type prefixWrapper struct {
	*wrapper
	prefix func(p string, n int) ([]byte, bool, error)
}

func (w prefixWrapper) ReadFilePrefix(p string, n int) ([]byte, bool, error) { return w.prefix(p, n) }

// TestCheck_good: correct filesystems pass, whatever their ReadDir order
// and whether or not they offer PrefixReader.
func TestCheck_good(t *testing.T) {
	t.Parallel()
	m := fixture(t)
	var mu sync.Mutex
	rng := rand.New(rand.NewSource(1))
	tests := []struct {
		name string
		fsys core.FS
	}{
		{"memfs", m},
		{"no PrefixReader", &wrapper{FS: m}},
		{"shuffled ReadDir", &wrapper{FS: m, readDir: func(p string) ([]core.DirEntry, error) {
			es, err := m.ReadDir(p)
			mu.Lock()
			rng.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
			mu.Unlock()
			return es, err
		}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := fsadaptertest.Check(tc.fsys, "/"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCheck_broken: the tester catches each kind of broken filesystem, and
// says what is wrong.
func TestCheck_broken(t *testing.T) {
	t.Parallel()
	m := fixture(t)
	var mu sync.Mutex
	cache := map[string][]byte{}
	tests := []struct {
		name string
		fsys core.FS
		want string // a substring of the error
	}{
		{"wrong code", &wrapper{FS: m, stat: func(p string) (core.FileType, error) {
			t, err := m.Stat(p)
			if core.POSIXCode(err) == core.ELOOP {
				err = &core.PathError{Op: "stat", Path: p, Code: core.ENOENT}
			}
			return t, err
		}}, `Stat("/loop1") = ENOENT, want ELOOP`},
		{"aliased ReadFile", &wrapper{FS: m, readFile: func(p string) ([]byte, error) {
			mu.Lock()
			defer mu.Unlock()
			if data, ok := cache[p]; ok {
				return data, nil
			}
			data, err := m.ReadFile(p)
			if err == nil {
				cache[p] = data
			}
			return data, err
		}}, `ReadFile("/a/b/c.txt"): the returned slice aliases`},
		{"ReadDir follows symlinks", &wrapper{FS: m, readDir: func(p string) ([]core.DirEntry, error) {
			es, err := m.ReadDir(p)
			for i, e := range es {
				if t, err := m.Stat(path.Join(p, e.Name)); err == nil {
					es[i].Type = t
				}
			}
			return es, err
		}}, `ReadDir("/") = [`},
		{"ReadDir drops an entry", &wrapper{FS: m, readDir: func(p string) ([]core.DirEntry, error) {
			es, err := m.ReadDir(p)
			if len(es) > 0 {
				es = es[1:]
			}
			return es, err
		}}, `want (in any order)`},
		{"ReadDir repeats an entry", &wrapper{FS: m, readDir: func(p string) ([]core.DirEntry, error) {
			es, err := m.ReadDir(p)
			if len(es) > 0 {
				es = append(es, es[0])
			}
			return es, err
		}}, `want (in any order)`},
		{"lexical realpath", &wrapper{FS: m, realpath: func(p string) (string, error) {
			if _, err := m.Stat(p); err != nil {
				return m.Realpath(p)
			}
			return path.Clean(p), nil
		}}, `Realpath("/rel-file") = "/rel-file", <nil>; want "/a/b/c.txt"`},
		{"not a PathError", &wrapper{FS: m, readFile: func(p string) ([]byte, error) {
			data, err := m.ReadFile(p)
			if err != nil {
				err = fmt.Errorf("read %s: %s", p, core.POSIXCode(err))
			}
			return data, err
		}}, `is not a *core.PathError`},
		{"host path in error", &wrapper{FS: m, stat: func(p string) (core.FileType, error) {
			t, err := m.Stat(p)
			if err != nil {
				err = &core.PathError{Op: "stat", Path: "/tmp/host" + p, Code: core.POSIXCode(err)}
			}
			return t, err
		}}, `PathError has Op "stat", Path "/tmp/host/loop1"`},
		{"wrong op in error", &wrapper{FS: m, stat: func(p string) (core.FileType, error) {
			t, err := m.Lstat(p)
			if err != nil {
				err = &core.PathError{Op: "lstat", Path: p, Code: core.POSIXCode(err)}
			}
			if t == core.TypeSymlink {
				return m.Stat(p)
			}
			return t, err
		}}, `PathError has Op "lstat"`},
		{"relative path accepted", &wrapper{FS: m, stat: func(p string) (core.FileType, error) {
			if !strings.HasPrefix(p, "/") {
				return m.Stat("/" + p)
			}
			return m.Stat(p)
		}}, `stat("a/b"): <nil>; want EINVAL`},
		{"too many links followed", &wrapper{FS: m, stat: func(p string) (core.FileType, error) {
			if strings.HasPrefix(p, "/chain/") {
				return m.Stat("/a")
			}
			return m.Stat(p)
		}}, `Stat("/chain/n00") = dir, want ELOOP`},
		{"prefix complete wrong", prefixWrapper{&wrapper{FS: m}, func(p string, n int) ([]byte, bool, error) {
			data, _, err := m.ReadFilePrefix(p, n)
			return data, err == nil, err
		}}, `ReadFilePrefix("/a/b/c.txt", 0) = "", complete true; want "", complete false`},
		{"prefix ignores n", prefixWrapper{&wrapper{FS: m}, func(p string, n int) ([]byte, bool, error) {
			data, err := m.ReadFile(p)
			return data, true, err
		}}, `ReadFilePrefix("/a/b/c.txt", 1) = "hello\n"`},
		{"prefix error differs", prefixWrapper{&wrapper{FS: m}, func(p string, n int) ([]byte, bool, error) {
			data, complete, err := m.ReadFilePrefix(p, n)
			if core.POSIXCode(err) == core.EISDIR {
				return nil, true, nil
			}
			return data, complete, err
		}}, `ReadFilePrefix("/", 16) = nil, true, <nil>; want EISDIR like ReadFile`},
		{"prefix aliased", prefixWrapper{&wrapper{FS: m}, func(p string, n int) ([]byte, bool, error) {
			mu.Lock()
			defer mu.Unlock()
			key := fmt.Sprint("prefix", p, n)
			if data, ok := cache[key]; ok {
				return data, len(data) < n || n > 100, nil
			}
			data, complete, err := m.ReadFilePrefix(p, n)
			if err == nil {
				cache[key] = data
			}
			return data, complete, err
		}}, `the returned slice aliases`},
		{"version through a link at the end", versionWrapper{&wrapper{FS: m}, func(p string) (core.FileVersion, error) {
			if real, err := m.Realpath(p); err == nil {
				return m.FileVersion(real) // follows the last link: a version for /rel-file
			}
			return m.FileVersion(p)
		}}, `FileVersion("/rel-file") = {Dev:0 Ino:`},
		{"version of a link inside the path", versionWrapper{&wrapper{FS: m}, func(p string) (core.FileVersion, error) {
			if t, _ := m.Lstat(p); t == core.TypeFile {
				if real, _ := m.Realpath(p); real != p {
					return core.FileVersion{}, &core.PathError{Op: "fileVersion", Path: p, Code: core.EINVAL}
				}
			}
			return m.FileVersion(p)
		}}, `want one version`},
		{"version of a directory", versionWrapper{&wrapper{FS: m}, func(p string) (core.FileVersion, error) {
			if t, err := m.Stat(p); err == nil && t == core.TypeDir {
				return core.FileVersion{}, nil
			}
			return m.FileVersion(p)
		}}, `FileVersion("/") = {Dev:0 Ino:0 Size:0 Mtime:0 Ctime:0}, <nil>; want EISDIR`},
		{"version without the size", versionWrapper{&wrapper{FS: m}, func(p string) (core.FileVersion, error) {
			v, err := m.FileVersion(p)
			v.Size = 0
			return v, err
		}}, `want one version, of size 6`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := fsadaptertest.Check(tc.fsys, "/")
			if err == nil {
				t.Fatal("Check passed a broken filesystem")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check error does not mention %q:\n%v", tc.want, err)
			}
		})
	}
}

// TestCheck_racy: an FS whose answers change under concurrent use fails.
func TestCheck_racy(t *testing.T) {
	t.Parallel()
	m := fixture(t)
	var mu sync.Mutex
	calls := 0
	fsys := &wrapper{FS: m, stat: func(p string) (core.FileType, error) {
		if p != "/a" {
			return m.Stat(p)
		}
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n > 1 { // right in the sequential pass, wrong in the concurrent one
			return core.TypeFile, nil
		}
		return m.Stat(p)
	}}
	err := fsadaptertest.Check(fsys, "/")
	if err == nil || !strings.Contains(err.Error(), "several goroutines") {
		t.Fatalf("Check = %v, want a concurrency failure", err)
	}
}

func TestCheck_badRoot(t *testing.T) {
	t.Parallel()
	for _, root := range []string{"", "rel", "/a/../b", "/a/"} {
		if err := fsadaptertest.Check(fixture(t), root); err == nil {
			t.Errorf("Check(root %q) = nil, want an error", root)
		}
	}
}

// versionWrapper is a [core.Versioner] whose FileVersion is fileVersion.
type versionWrapper struct {
	*wrapper
	fileVersion func(string) (core.FileVersion, error)
}

func (w versionWrapper) FileVersion(p string) (core.FileVersion, error) { return w.fileVersion(p) }
