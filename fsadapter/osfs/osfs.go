// Package osfs is the [core.FS] of the real operating system.
//
// [New] serves the whole filesystem: the engine's absolute slash paths are
// the host's paths. [Dir] serves a subtree as if it were the whole
// filesystem: the engine's "/home/u" is root+"/home/u", and [FS.Realpath]
// strips root back off, so the engine only ever sees virtual paths. This is
// how the conformance corpus runs over a tree written to a temporary
// directory.
//
// # Errors
//
// Every error is a [*core.PathError] whose Op is the [core.FS] method
// ("readDir", "stat", "lstat", "readFile", "realpath"), whose Path is the
// path the engine passed (never the host path) and whose Code is the POSIX
// name of the OS error ("ENOENT", "ENOTDIR", "EISDIR", "EACCES", "ELOOP",
// "EIO", ...). An error the OS reports without an errno is "EIO", except a
// symlink loop, which is always "ELOOP". A path that is not absolute is
// "EINVAL".
//
// # Dir and symlinks
//
// Dir does not emulate chroot: the OS follows symlinks, so an absolute link
// target must already name the host path (the corpus writes a case's
// "/shared/x" as root+"/shared/x"), and a link may lead outside root. Stat,
// ReadDir and ReadFile then see the outside target. Realpath cannot name it
// as a virtual path, so it fails with ENOENT, as for a dangling link: to the
// engine, a place outside the tree does not exist (and S11 skips it
// silently).
//
// # Realpath
//
// On Linux, Realpath opens the path with O_PATH and reads the kernel's name
// for the descriptor from /proc/self/fd: three system calls whatever the
// depth, with the kernel's own symlink rules (40 links at most). Where
// /proc is not mounted, and on other systems, it uses [os.Stat] (for the
// kernel's error codes and link limit) and then [filepath.EvalSymlinks].
package osfs

import (
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/internal/fsconv"
)

// FS is a [core.FS] over the host filesystem, optionally rooted at a
// directory. It holds no open files and no caches; it is safe for
// concurrent use.
type FS struct {
	root     string // host directory for "/"; "" for the whole filesystem
	rootReal string // root with its symlinks resolved; "" for New
	portable bool   // tests: use evalSymlinks even on Linux
}

var (
	_ core.FS               = (*FS)(nil)
	_ core.PrefixReader     = (*FS)(nil)
	_ core.PrefixReaderInto = (*FS)(nil)
	_ core.ContainedReader  = (*FS)(nil)
	_ core.Versioner        = (*FS)(nil)
	_ core.VersionedReader  = (*FS)(nil)
)

// New returns the FS of the whole host filesystem.
func New() *FS { return &FS{} }

// Dir returns an FS that serves the host directory root as "/". root must
// exist; it is made absolute and its own symlinks are resolved once, here.
func Dir(root string) (*FS, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	real, err := realpath(abs)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "osfs.Dir", Path: root, Err: syscall.ENOTDIR}
	}
	if real == string(filepath.Separator) {
		return &FS{}, nil
	}
	return &FS{root: real, rootReal: real}, nil
}

// host returns the host path for the engine path p, or an error for a
// path that is not absolute.
func (f *FS) host(op, p string) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", &core.PathError{Op: op, Path: p, Code: core.EINVAL}
	}
	if f.root == "" {
		return filepath.FromSlash(p), nil
	}
	// Cleaning keeps a ".." in p from climbing out of root.
	return f.root + filepath.FromSlash(filepath.Clean(p)), nil
}

// ReadDir lists the directory p, following symlinks to reach it, with each
// entry typed by lstat semantics. Entries are in the order the OS lists
// them.
func (f *FS) ReadDir(p string) ([]core.DirEntry, error) {
	h, err := f.host("readDir", p)
	if err != nil {
		return nil, err
	}
	d, err := os.Open(h)
	if err != nil {
		return nil, wrap("readDir", p, err)
	}
	defer d.Close()
	ents, err := d.ReadDir(-1)
	if err != nil {
		return nil, wrap("readDir", p, err)
	}
	out := make([]core.DirEntry, len(ents))
	for i, e := range ents {
		out[i] = core.DirEntry{Name: e.Name(), Type: fsconv.FileType(e.Type())}
	}
	return out, nil
}

// Stat reports the type of p, following symlinks.
func (f *FS) Stat(p string) (core.FileType, error) {
	h, err := f.host("stat", p)
	if err != nil {
		return core.TypeOther, err
	}
	fi, err := os.Stat(h)
	if err != nil {
		return core.TypeOther, wrap("stat", p, err)
	}
	return fsconv.FileType(fi.Mode()), nil
}

// FileVersion returns the version of the regular file p names, following
// no link at its last element ([core.Versioner]): ENOSYS on a system whose
// stat has no change time.
func (f *FS) FileVersion(p string) (core.FileVersion, error) {
	h, err := f.host("fileVersion", p)
	if err != nil {
		return core.FileVersion{}, err
	}
	fi, err := os.Lstat(h)
	if err != nil {
		return core.FileVersion{}, wrap("fileVersion", p, err)
	}
	switch t := fsconv.FileType(fi.Mode()); {
	case t == core.TypeDir:
		return core.FileVersion{}, &core.PathError{Op: "fileVersion", Path: p, Code: core.EISDIR}
	case t != core.TypeFile:
		return core.FileVersion{}, &core.PathError{Op: "fileVersion", Path: p, Code: core.EINVAL}
	}
	v, ok := statVersion(fi)
	if !ok {
		return core.FileVersion{}, &core.PathError{Op: "fileVersion", Path: p, Code: core.ENOSYS}
	}
	return v, nil
}

// Lstat reports the type of p without following a final symlink.
func (f *FS) Lstat(p string) (core.FileType, error) {
	h, err := f.host("lstat", p)
	if err != nil {
		return core.TypeOther, err
	}
	fi, err := os.Lstat(h)
	if err != nil {
		return core.TypeOther, wrap("lstat", p, err)
	}
	return fsconv.FileType(fi.Mode()), nil
}

// ReadFile returns the contents of the file p in a new slice the caller
// owns. A directory gives EISDIR.
func (f *FS) ReadFile(p string) ([]byte, error) {
	h, err := f.host("readFile", p)
	if err != nil {
		return nil, err
	}
	file, err := openRegular(h, p)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	data, err := io.ReadAll(file)
	if err != nil {
		return nil, wrap("readFile", p, err)
	}
	return data, nil
}

// openRegular opens h for reading and makes sure it is a regular file: a
// directory gives EISDIR, a FIFO, socket or device EINVAL (a FIFO would
// block a read and /dev/zero never end).
func openRegular(h, p string) (*os.File, error) {
	file, err := os.OpenFile(h, openFlags, 0)
	if err != nil {
		return nil, wrap("readFile", p, err)
	}
	if err := checkRegular(file, p); err != nil {
		file.Close()
		return nil, err
	}
	return file, nil
}

// checkRegular fails unless the open file is a regular file: EISDIR for a
// directory, EINVAL for anything else.
func checkRegular(file *os.File, p string) error {
	fi, err := file.Stat()
	if err != nil {
		return wrap("readFile", p, err)
	}
	if !fi.Mode().IsRegular() {
		code := core.EINVAL
		if fi.IsDir() {
			code = core.EISDIR
		}
		return &core.PathError{Op: "readFile", Path: p, Code: code}
	}
	return nil
}

// ReadFilePrefix returns at most n bytes of the file p and whether they are
// the whole file. It opens the file and reads no more than n+1 bytes.
func (f *FS) ReadFilePrefix(p string, n int) ([]byte, bool, error) {
	h, err := f.host("readFile", p)
	if err != nil {
		return nil, false, err
	}
	if n < 0 {
		return nil, false, &core.PathError{Op: "readFile", Path: p, Code: core.EINVAL}
	}
	file, err := openRegular(h, p)
	if err != nil {
		return nil, false, err
	}
	defer file.Close()
	// Read n+1 bytes: getting the extra one proves the file is longer.
	// Start small, since a skill file is usually much shorter than n.
	buf := make([]byte, min(n+1, 8192))
	got := 0
	for {
		if got == len(buf) {
			if got > n {
				return buf[:n:n], false, nil
			}
			buf = append(buf, make([]byte, min(len(buf), n+1-len(buf)))...)
		}
		m, err := file.Read(buf[got:])
		got += m
		if err == io.EOF {
			return buf[:got:got], true, nil
		}
		if err != nil {
			return nil, false, wrap("readFile", p, err)
		}
	}
}

// ReadFilePrefixInto reads at most len(buf) bytes of the file p into buf
// and reports whether they are the whole file. It reads no more than
// len(buf)+1 bytes.
func (f *FS) ReadFilePrefixInto(p string, buf []byte) (int, bool, error) {
	h, err := f.host("readFile", p)
	if err != nil {
		return 0, false, err
	}
	file, err := openRegular(h, p)
	if err != nil {
		return 0, false, err
	}
	defer file.Close()
	got := 0
	var probe [1]byte
	for {
		dst := buf[got:]
		if got == len(buf) {
			dst = probe[:] // getting one more byte proves the file is longer
		}
		m, err := file.Read(dst)
		if got == len(buf) && m > 0 {
			return got, false, nil
		}
		got += m
		if err == io.EOF {
			return got, true, nil
		}
		if err != nil {
			return 0, false, wrap("readFile", p, err)
		}
	}
}

// ReadFileWithin reads at most len(buf) bytes of the regular file p into
// buf, when the file it opened lies inside the virtual realpath within
// ([core.ContainedReader], SPEC S44). The check is made on the open
// descriptor, so a path swapped for a link after the engine checked it
// gives EXDEV, never the bytes behind the link: on Linux the kernel names
// the descriptor (/proc/self/fd); elsewhere, and when /proc is missing,
// the realpath of p must be inside within and is opened through an
// [os.Root] at within, which refuses any link out of it. size is the file's size from fstat; when
// the file holds more than len(buf) bytes, size > len(buf).
func (f *FS) ReadFileWithin(within, p string, buf []byte) (int, int64, error) {
	n, size, _, err := f.ReadFileWithinVersion(within, p, buf)
	return n, size, err
}

// ReadFileWithinVersion is ReadFileWithin that also gives the version of
// the file it opened, from the fstat of its descriptor
// ([core.VersionedReader]); the zero version on a system whose stat has no
// change time.
func (f *FS) ReadFileWithinVersion(within, p string, buf []byte) (int, int64, core.FileVersion, error) {
	h, err := f.host("readFile", p)
	if err != nil {
		return 0, 0, core.FileVersion{}, err
	}
	if n, size, v, handled, err := f.readWithin(h, within, p, buf); handled {
		return n, size, v, err
	}
	file, err := f.openWithin(h, within, p)
	if err != nil {
		return 0, 0, core.FileVersion{}, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return 0, 0, core.FileVersion{}, wrap("readFile", p, err)
	}
	v, _ := statVersion(fi)
	got := 0
	for got < len(buf) {
		m, err := file.Read(buf[got:])
		got += m
		if err == io.EOF {
			return got, int64(got), v, nil
		}
		if err != nil {
			return 0, 0, core.FileVersion{}, wrap("readFile", p, err)
		}
	}
	size := fi.Size()
	if size <= int64(got) {
		// A few more bytes prove the file is longer (8: /proc files such
		// as pagemap refuse smaller reads, and an error counts as more).
		var probe [8]byte
		if m, err := file.Read(probe[:]); m > 0 || err != nil && err != io.EOF {
			size = int64(got) + 1
		} else {
			size = int64(got)
		}
	}
	return got, size, v, nil
}

// openWithin opens the regular file p (host path h) when the file opened
// lies inside the virtual realpath within, else EXDEV. On Linux it opens h
// and asks the kernel for the descriptor's name. Elsewhere (and without
// /proc) it opens the realpath of p through an [os.Root] at within, which
// never follows a link out of within, whatever happens to the path
// meanwhile.
func (f *FS) openWithin(h, within, p string) (*os.File, error) {
	if !f.portable {
		file, err := openRegular(h, p)
		if err != nil {
			return nil, err
		}
		if name, ok := openedName(file); ok {
			if v, ok := f.virtual(name); ok && pathWithin(v, within) {
				return file, nil
			}
			file.Close()
			return nil, &core.PathError{Op: "readFile", Path: p, Code: core.EXDEV}
		}
		file.Close()
	}
	real, err := f.Realpath(p)
	if err != nil {
		return nil, &core.PathError{Op: "readFile", Path: p, Code: core.POSIXCode(err)}
	}
	if !pathWithin(real, within) {
		return nil, &core.PathError{Op: "readFile", Path: p, Code: core.EXDEV}
	}
	// within may be the file itself (discovery reads a plain SKILL.md
	// against its exact realpath): then the root is its folder, never the
	// file, which os.OpenRoot would open blocking were it a FIFO.
	dir, rel := within, strings.TrimPrefix(strings.TrimPrefix(real, within), "/")
	if real == within && within != "/" {
		dir, rel = path.Dir(within), path.Base(within)
	}
	hw, err := f.host("readFile", dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(hw)
	if err != nil {
		return nil, wrap("readFile", p, err)
	}
	defer root.Close()
	if rel == "" {
		rel = "."
	}
	file, err := root.OpenFile(filepath.FromSlash(rel), openFlags, 0)
	if err != nil {
		if Code(err) == core.EIO && strings.Contains(err.Error(), "escapes") {
			return nil, &core.PathError{Op: "readFile", Path: p, Code: core.EXDEV}
		}
		return nil, wrap("readFile", p, err)
	}
	if err := checkRegular(file, p); err != nil {
		file.Close()
		return nil, err
	}
	return file, nil
}

// virtual turns a host realpath into the engine's path; ok is false for a
// place outside root.
func (f *FS) virtual(real string) (string, bool) {
	real = filepath.ToSlash(real)
	if f.root == "" {
		return real, true
	}
	root := filepath.ToSlash(f.rootReal)
	switch {
	case real == root:
		return "/", true
	case strings.HasPrefix(real, root) && real[len(root)] == '/':
		return real[len(root):], true
	}
	return "", false
}

// pathWithin reports whether the clean absolute path p is dir or lies
// below it.
func pathWithin(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// Realpath returns p with every symlink resolved. With [Dir], the result
// is a virtual path under "/"; a target outside root gives ENOENT.
func (f *FS) Realpath(p string) (string, error) {
	h, err := f.host("realpath", p)
	if err != nil {
		return "", err
	}
	var real string
	if f.portable {
		real, err = evalSymlinks(h)
	} else {
		real, err = realpath(h)
	}
	if err != nil {
		return "", wrap("realpath", p, err)
	}
	if v, ok := f.virtual(real); ok {
		return v, nil
	}
	return "", &core.PathError{Op: "realpath", Path: p, Code: core.ENOENT}
}

// evalSymlinks is the portable realpath: filepath.EvalSymlinks, whose
// result is already absolute for an absolute input. A stat first makes
// the errors the kernel's: EvalSymlinks follows up to 255 links where
// Linux stops at 40 (and macOS at 32).
func evalSymlinks(h string) (string, error) {
	if _, err := os.Stat(h); err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(h)
}

// wrap turns an OS error into a *core.PathError for the engine path p.
func wrap(op, p string, err error) error {
	return &core.PathError{Op: op, Path: p, Code: Code(err)}
}

// Code returns the POSIX name of the OS error err: the name of its
// syscall.Errno when it has one ("ENOENT", "EACCES", ...), "ELOOP" for
// filepath.EvalSymlinks' "too many links", "ENOENT", "EACCES" or "EINVAL"
// for errors that only say fs.ErrNotExist, fs.ErrPermission or
// fs.ErrInvalid, else "EIO".
func Code(err error) string { return fsconv.Code(err) }
