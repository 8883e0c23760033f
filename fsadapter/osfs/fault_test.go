//go:build unix

package osfs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/osfs"
)

// Fault tests of the OS adapter: what the disk does between two
// calls of the engine, special files, huge and endless files, odd names.
// Every answer is a *core.PathError with the kernel's code (S2), never a
// hang or an unbounded read.

// bothRealpaths runs f over Dir(dir) and over its portable variant.
func bothRealpaths(t *testing.T, dir string, f func(t *testing.T, fsys *osfs.FS)) {
	fsys, err := osfs.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("Dir", func(t *testing.T) { f(t, fsys) })
	t.Run("Dir/portable", func(t *testing.T) { f(t, osfs.Portable(fsys)) })
}

func code(err error) string { return core.POSIXCode(err) }

// TestOSFS_changedBetweenCalls: a name listed by ReadDir is removed or
// replaced before the next call; each call reports the kernel's code for
// the new state (S2, S11).
func TestOSFS_changedBetweenCalls(t *testing.T) {
	t.Parallel()
	type call struct {
		op, path, want string
	}
	cases := []struct {
		name   string
		change func(t *testing.T, h func(string) string)
		calls  []call
	}{
		{"folder removed", func(t *testing.T, h func(string) string) {
			mustT(t, os.RemoveAll(h("/r/x")))
		}, []call{
			{"lstat", "/r/x", core.ENOENT}, {"stat", "/r/x", core.ENOENT}, {"readDir", "/r/x", core.ENOENT},
			{"lstat", "/r/x/SKILL.md", core.ENOENT}, {"readFile", "/r/x/SKILL.md", core.ENOENT},
			{"prefix", "/r/x/SKILL.md", core.ENOENT}, {"realpath", "/r/x/SKILL.md", core.ENOENT},
		}},
		{"folder replaced by a file", func(t *testing.T, h func(string) string) {
			mustT(t, os.RemoveAll(h("/r/x")))
			mustT(t, os.WriteFile(h("/r/x"), []byte("file"), 0o644))
		}, []call{
			{"readDir", "/r/x", core.ENOTDIR}, {"lstat", "/r/x/SKILL.md", core.ENOTDIR},
			{"stat", "/r/x/SKILL.md", core.ENOTDIR}, {"prefix", "/r/x/SKILL.md", core.ENOTDIR},
			{"realpath", "/r/x/SKILL.md", core.ENOTDIR},
		}},
		{"folder replaced by a link loop", func(t *testing.T, h func(string) string) {
			mustT(t, os.RemoveAll(h("/r/x")))
			mustT(t, os.Symlink("x", h("/r/x")))
		}, []call{
			{"lstat", "/r/x", ""}, {"stat", "/r/x", core.ELOOP}, {"readDir", "/r/x", core.ELOOP},
			{"lstat", "/r/x/SKILL.md", core.ELOOP}, {"prefix", "/r/x/SKILL.md", core.ELOOP},
			{"realpath", "/r/x", core.ELOOP},
		}},
		{"folder replaced by a dangling link", func(t *testing.T, h func(string) string) {
			mustT(t, os.RemoveAll(h("/r/x")))
			mustT(t, os.Symlink("gone", h("/r/x")))
		}, []call{
			{"lstat", "/r/x", ""}, {"stat", "/r/x", core.ENOENT}, {"readDir", "/r/x", core.ENOENT},
			{"lstat", "/r/x/SKILL.md", core.ENOENT}, {"realpath", "/r/x", core.ENOENT},
		}},
		{"SKILL.md replaced by a folder", func(t *testing.T, h func(string) string) {
			mustT(t, os.Remove(h("/r/x/SKILL.md")))
			mustT(t, os.Mkdir(h("/r/x/SKILL.md"), 0o755))
		}, []call{
			{"readFile", "/r/x/SKILL.md", core.EISDIR}, {"prefix", "/r/x/SKILL.md", core.EISDIR},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			h := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
			mustT(t, os.MkdirAll(h("/r/x"), 0o755))
			mustT(t, os.WriteFile(h("/r/x/SKILL.md"), []byte("---\nname: x\n---\n"), 0o644))
			bothRealpaths(t, dir, func(t *testing.T, fsys *osfs.FS) {
				ents, err := fsys.ReadDir("/r")
				if err != nil || len(ents) != 1 || ents[0].Name != "x" {
					t.Fatalf("ReadDir(/r) = %v, %v", ents, err)
				}
			})
			tc.change(t, h)
			bothRealpaths(t, dir, func(t *testing.T, fsys *osfs.FS) {
				for _, c := range tc.calls {
					var err error
					switch c.op {
					case "lstat":
						_, err = fsys.Lstat(c.path)
					case "stat":
						_, err = fsys.Stat(c.path)
					case "readDir":
						_, err = fsys.ReadDir(c.path)
					case "readFile":
						_, err = fsys.ReadFile(c.path)
					case "prefix":
						_, _, err = fsys.ReadFilePrefix(c.path, 4096)
					case "realpath":
						_, err = fsys.Realpath(c.path)
					}
					if code(err) != c.want {
						t.Errorf("%s(%s) = %v, want %q", c.op, c.path, err, c.want)
					}
					if err != nil && !strings.Contains(err.Error(), c.path) {
						t.Errorf("%s(%s): the error %q does not name the engine path", c.op, c.path, err)
					}
				}
			})
		})
	}
}

// TestOSFS_ReadFilePrefix_huge: a 100 MB (sparse) file gives exactly the
// prefix asked for, promptly (discovery relies on this to bound what it reads
// of a SKILL.md), and an endless one (/dev/zero) is refused as no regular
// file.
func TestOSFS_ReadFilePrefix_huge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "SKILL.md")
	mustT(t, os.WriteFile(big, []byte("---\nname: huge\n"), 0o644))
	mustT(t, os.Truncate(big, 100<<20))
	fsys, err := osfs.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, 4 << 10, 128 << 10} {
		start := time.Now()
		data, complete, err := fsys.ReadFilePrefix("/SKILL.md", n)
		if err != nil || len(data) != n || complete {
			t.Errorf("ReadFilePrefix(100 MB, %d) = %d bytes, complete %v, %v", n, len(data), complete, err)
		}
		if n > 16 && !bytes.HasPrefix(data, []byte("---\nname: huge\n\x00")) {
			t.Errorf("ReadFilePrefix(100 MB, %d): wrong bytes %q...", n, data[:20])
		}
		t.Logf("100 MB file, prefix %d: %v", n, time.Since(start))
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero: " + err.Error())
	}
	// An endless device is no regular file: refused before any read.
	whole := osfs.New()
	if _, _, err := whole.ReadFilePrefix("/dev/zero", 128<<10); core.POSIXCode(err) != core.EINVAL {
		t.Errorf("ReadFilePrefix(/dev/zero) error %v, want EINVAL", err)
	}
	if _, err := whole.ReadFile("/dev/zero"); core.POSIXCode(err) != core.EINVAL {
		t.Errorf("ReadFile(/dev/zero) error %v, want EINVAL", err)
	}
}

// TestOSFS_specialFiles: FIFOs and devices are typed "other" (S2), so the
// engine, which reads only regular files, never opens them.
func TestOSFS_specialFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustT(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	mustT(t, os.Symlink("/dev/null", filepath.Join(dir, "null")))
	bothRealpaths(t, dir, func(t *testing.T, fsys *osfs.FS) {
		ents, err := fsys.ReadDir("/")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			want := map[string]core.FileType{"fifo": core.TypeOther, "null": core.TypeSymlink}[e.Name]
			if e.Type != want {
				t.Errorf("ReadDir: %s is %v, want %v", e.Name, e.Type, want)
			}
		}
		for _, p := range []string{"/fifo", "/null"} {
			if typ, err := fsys.Stat(p); err != nil || typ != core.TypeOther {
				t.Errorf("Stat(%s) = %v, %v; want other", p, typ, err)
			}
		}
		if typ, err := fsys.Lstat("/fifo"); err != nil || typ != core.TypeOther {
			t.Errorf("Lstat(/fifo) = %v, %v; want other", typ, err)
		}
	})
}

// TestOSFS_ReadFilePrefix_FIFO: a SKILL.md (or plugin registry) swapped
// for a FIFO after the engine checked its type must not block the host
// (js/src/nodefs.js opens with O_NONBLOCK for this reason).
func TestOSFS_ReadFilePrefix_FIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	mustT(t, syscall.Mkfifo(fifo, 0o644))
	fsys, err := osfs.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"readFile", "prefix"} {
		done := make(chan error, 1)
		go func() {
			var err error
			if op == "readFile" {
				_, err = fsys.ReadFile("/fifo")
			} else {
				_, _, err = fsys.ReadFilePrefix("/fifo", 4096)
			}
			done <- err
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second): // a hang guard, not a time bound: the read returns at once
			t.Errorf("%s of a FIFO blocked for 30 s", op)
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // release the reader
			mustT(t, err)
			w.Close()
			<-done
		}
	}
}

// TestOSFS_oddNames: names with invalid UTF-8, newlines, quotes and
// backslashes, and a 255-byte name, come back from ReadDir byte for byte
// and work in every other call.
func TestOSFS_oddNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	names := []string{"bad\xff\xfe", "\xc0\xaf", "new\nline", `q"uote\back`, "tab\tx", strings.Repeat("n", 255), "-dash", " space "}
	for _, n := range names {
		mustT(t, os.MkdirAll(filepath.Join(dir, n), 0o755))
		mustT(t, os.WriteFile(filepath.Join(dir, n, "SKILL.md"), []byte(n), 0o644))
	}
	bothRealpaths(t, dir, func(t *testing.T, fsys *osfs.FS) {
		ents, err := fsys.ReadDir("/")
		if err != nil || len(ents) != len(names) {
			t.Fatalf("ReadDir = %d entries, %v", len(ents), err)
		}
		for _, n := range names {
			p := "/" + n + "/SKILL.md"
			data, err := fsys.ReadFile(p)
			if err != nil || string(data) != n {
				t.Errorf("ReadFile(%q) = %q, %v", p, data, err)
			}
			if real, err := fsys.Realpath(p); err != nil || real != p {
				t.Errorf("Realpath(%q) = %q, %v", p, real, err)
			}
		}
	})
	// A name over the kernel's limit is ENAMETOOLONG, not a crash.
	fsys, _ := osfs.Dir(dir)
	if _, err := fsys.Lstat("/" + strings.Repeat("n", 256)); code(err) != "ENAMETOOLONG" {
		t.Errorf("Lstat(256-byte name) = %v, want ENAMETOOLONG", err)
	}
}

func mustT(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
