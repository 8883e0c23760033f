package osfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/fsadaptertest"
	"github.com/skilldex/skilldex/fsadapter/osfs"
)

func fixtureDir(t testing.TB) string {
	dir := t.TempDir()
	if err := fsadaptertest.Build(fsadaptertest.OSBuilder(dir), "/"); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestOSFS_conformance runs the fsadaptertest checks (S2) over Dir and over
// New.
func TestOSFS_conformance(t *testing.T) {
	t.Parallel()
	dir := fixtureDir(t)
	t.Run("Dir", func(t *testing.T) {
		t.Parallel()
		fsys, err := osfs.Dir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := fsadaptertest.Check(fsys, "/"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("Dir/portable", func(t *testing.T) {
		t.Parallel()
		fsys, err := osfs.Dir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := fsadaptertest.Check(osfs.Portable(fsys), "/"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("New", func(t *testing.T) {
		t.Parallel()
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := fsadaptertest.Check(osfs.New(), filepath.ToSlash(real)); err != nil {
			t.Fatal(err)
		}
	})
}

// TestOSFS_DirThroughLink: a root reached through a symlink still gives
// virtual realpaths.
func TestOSFS_DirThroughLink(t *testing.T) {
	t.Parallel()
	dir := fixtureDir(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	fsys, err := osfs.Dir(link)
	if err != nil {
		t.Fatal(err)
	}
	if err := fsadaptertest.Check(fsys, "/"); err != nil {
		t.Fatal(err)
	}
}

// TestOSFS_DirEscape: a link leading outside root has no virtual realpath;
// Realpath reports ENOENT (see the package doc) while Stat sees the target.
func TestOSFS_DirEscape(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	root := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	fsys, err := osfs.Dir(root)
	if err != nil {
		t.Fatal(err)
	}
	if typ, err := fsys.Stat("/out"); err != nil || typ != core.TypeDir {
		t.Errorf("Stat(/out) = %v, %v; want dir", typ, err)
	}
	if real, err := fsys.Realpath("/out"); core.POSIXCode(err) != core.ENOENT {
		t.Errorf("Realpath(/out) = %q, %v; want ENOENT", real, err)
	}
	// A ".." in a path never climbs out of root.
	if real, err := fsys.Realpath("/../../.."); err != nil || real != "/" {
		t.Errorf("Realpath(/../../..) = %q, %v; want /", real, err)
	}
}

func TestOSFS_Dir_errors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := osfs.Dir(file); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("Dir(file): %v, want ENOTDIR", err)
	}
	if _, err := osfs.Dir(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Dir(missing): %v, want not-exist", err)
	}
}

// TestOSFS_permission: an unreadable directory or file is EACCES (S11, S12).
func TestOSFS_permission(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root reads everything; permission errors cannot be produced")
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "locked"), 0o000); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("x"), 0o000); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "locked"), 0o755) })
	fsys, err := osfs.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err1 := fsys.ReadDir("/locked")
	_, err2 := fsys.ReadFile("/secret")
	_, _, err3 := fsys.ReadFilePrefix("/secret", 1)
	_, err4 := fsys.Stat("/locked/x")
	for i, err := range []error{err1, err2, err3, err4} {
		if core.POSIXCode(err) != core.EACCES {
			t.Errorf("call %d: %v, want EACCES", i, err)
		}
	}
}

func TestCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{nil, ""},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.ENOENT}, "ENOENT"},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.ENOTDIR}, "ENOTDIR"},
		{&fs.PathError{Op: "read", Path: "/x", Err: syscall.EISDIR}, "EISDIR"},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}, "EACCES"},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.EPERM}, "EPERM"},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.ELOOP}, "ELOOP"},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.ENAMETOOLONG}, "ENAMETOOLONG"},
		{errors.New("EvalSymlinks: too many links"), "ELOOP"},
		{fmt.Errorf("wrapped: %w", fs.ErrNotExist), "ENOENT"},
		{fmt.Errorf("wrapped: %w", fs.ErrPermission), "EACCES"},
		{errors.New("something else"), "EIO"},
	}
	for _, tc := range tests {
		if got := osfs.Code(tc.err); got != tc.want {
			t.Errorf("Code(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// BenchmarkRealpath compares Realpath (O_PATH + /proc on Linux) with
// filepath.EvalSymlinks on a deep path through links.
func BenchmarkRealpath(b *testing.B) {
	dir := fixtureDir(b)
	deep := filepath.Join(dir, "rel-dir/b/parent/b/parent/b/c.txt")
	b.Run("osfs.New", func(b *testing.B) {
		fsys := osfs.New()
		for b.Loop() {
			if _, err := fsys.Realpath(deep); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("portable", func(b *testing.B) {
		fsys := osfs.Portable(osfs.New())
		for b.Loop() {
			if _, err := fsys.Realpath(deep); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("EvalSymlinks", func(b *testing.B) {
		for b.Loop() {
			if _, err := filepath.EvalSymlinks(deep); err != nil {
				b.Fatal(err)
			}
		}
	})
}
