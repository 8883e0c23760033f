// Package iofs is a [core.FS] over any [io/fs.FS]: an [embed.FS] compiled
// into a program, a [testing/fstest.MapFS], an [os.DirFS], a zip archive
// ([archive/zip.Reader]). The io/fs.FS appears at "/": the engine's
// "/skills/pdf/SKILL.md" is its name "skills/pdf/SKILL.md", and "/" is ".".
//
//	//go:embed workspace
//	var workspace embed.FS
//
//	res, err := core.Discover(ctx, iofs.New(workspace), "/workspace/project", "/workspace/home", core.Options{})
//
// # Links
//
// The adapter resolves paths itself, one name at a time, with the rules of
// package memfs (and of Linux): a link's target is relative to the link's
// directory or, when absolute, to the root of the io/fs.FS; ".." is
// physical; at most 40 links are followed; and the codes are the kernel's
// (ENOENT, ENOTDIR, ELOOP, EISDIR). It then opens only resolved names, so
// the io/fs.FS never follows a link the engine did not see. What an
// io/fs.FS can tell limits what this adapter can:
//
//   - Links exist only for an io/fs.FS that implements [io/fs.ReadLinkFS]
//     (os.DirFS and fstest.MapFS do). Any other (embed.FS, a zip archive)
//     shows none: Lstat is Stat, and Realpath is the clean path of an entry
//     that exists.
//   - An absolute link target names a place in the io/fs.FS, as in a
//     chroot, not on the host: a link that os.DirFS(dir) shows with the
//     target /etc/passwd names dir/etc/passwd here, which osfs would not
//     (a link written for the host, with dir in its target, resolves only
//     where the io/fs.FS holds that path). For a host directory, package
//     osfs (osfs.Dir) gives the kernel's own answers.
//   - Nothing ties a read to the checks before it: a tree that changes
//     while the engine reads it (os.DirFS of a live directory) can swap a
//     name for a link between the adapter's walk and its open, which osfs
//     closes by checking the file it opened. This adapter is exact for
//     trees that do not change during a call: embed.FS, fstest.MapFS, an
//     archive.
//   - An io/fs.FS has no inode or change time, so this FS is no
//     [core.Versioner]: a long-lived engine (wire.Session) cannot
//     prove a file unchanged by its version and reads it again.
//   - Entries that are neither files, directories nor links (a FIFO seen
//     through os.DirFS) are core.TypeOther, and reading one fails with
//     EINVAL instead of blocking.
//
// # Errors
//
// Every error is a [*core.PathError] whose Op is the method's name, whose
// Path is the engine's path, and whose Code is the POSIX name of what the
// io/fs.FS said ([fs.ErrNotExist]: ENOENT, [fs.ErrPermission]: EACCES,
// [fs.ErrInvalid]: EINVAL, a syscall errno by its name, anything else EIO).
// The FS passes the fsadaptertest conformance checks.
//
// # Concurrency
//
// FS is safe for concurrent use when the io/fs.FS is: embed.FS, os.DirFS,
// and an fstest.MapFS that nothing modifies are.
package iofs

import (
	"errors"
	"io"
	"io/fs"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/internal/fsconv"
	"github.com/skilldex/skilldex/fsadapter/internal/linkwalk"
)

// FS is a [core.FS] over an io/fs.FS. Make one with [New].
type FS struct {
	fsys  fs.FS
	links fs.ReadLinkFS // fsys, when it can tell links; nil otherwise
}

var (
	_ core.FS               = (*FS)(nil)
	_ core.PrefixReader     = (*FS)(nil)
	_ core.PrefixReaderInto = (*FS)(nil)
)

// New returns the FS that serves fsys at "/".
func New(fsys fs.FS) *FS {
	f := &FS{fsys: fsys}
	f.links, _ = fsys.(fs.ReadLinkFS)
	return f
}

// entry is a name of the io/fs.FS that the walk reached, with its type.
type entry struct {
	name string // "." for the root
	typ  core.FileType
}

// resolve walks p (linkwalk.Resolve), following a link at its last
// element when followLast is set.
func (f *FS) resolve(op, p string, followLast bool) (entry, string, error) {
	e, real, code := linkwalk.Resolve(entry{name: ".", typ: core.TypeDir}, p, followLast, f.child)
	if code != "" {
		return entry{}, "", &core.PathError{Op: op, Path: p, Code: code}
	}
	return e, real, nil
}

// child is the [linkwalk.Child] of the io/fs.FS: an lstat of name in dir,
// and the link's target.
func (f *FS) child(dir entry, name string) (entry, core.FileType, string, string) {
	full := name
	if dir.name != "." {
		full = dir.name + "/" + name
	}
	if !fs.ValidPath(full) {
		return entry{}, core.TypeOther, "", core.ENOENT // a name io/fs cannot hold
	}
	var info fs.FileInfo
	var err error
	if f.links != nil {
		info, err = f.links.Lstat(full)
	} else {
		info, err = fs.Stat(f.fsys, full)
	}
	if err != nil {
		return entry{}, core.TypeOther, "", fsconv.Code(err)
	}
	typ := fsconv.FileType(info.Mode())
	target := ""
	if typ == core.TypeSymlink {
		if target, err = f.links.ReadLink(full); err != nil {
			return entry{}, core.TypeOther, "", fsconv.Code(err)
		}
	}
	return entry{name: full, typ: typ}, typ, target, ""
}

// ReadDir lists the directory p, following links, each entry typed with
// lstat semantics.
func (f *FS) ReadDir(p string) ([]core.DirEntry, error) {
	e, _, err := f.resolve("readDir", p, true)
	if err != nil {
		return nil, err
	}
	if e.typ != core.TypeDir {
		return nil, &core.PathError{Op: "readDir", Path: p, Code: core.ENOTDIR}
	}
	list, err := fs.ReadDir(f.fsys, e.name)
	if err != nil {
		return nil, &core.PathError{Op: "readDir", Path: p, Code: fsconv.Code(err)}
	}
	out := make([]core.DirEntry, len(list))
	for i, d := range list {
		out[i] = core.DirEntry{Name: d.Name(), Type: fsconv.FileType(d.Type())}
	}
	return out, nil
}

// Stat reports the type of p, following links.
func (f *FS) Stat(p string) (core.FileType, error) {
	e, _, err := f.resolve("stat", p, true)
	if err != nil {
		return core.TypeOther, err
	}
	return e.typ, nil
}

// Lstat reports the type of p, following no link at its last element.
func (f *FS) Lstat(p string) (core.FileType, error) {
	e, _, err := f.resolve("lstat", p, false)
	if err != nil {
		return core.TypeOther, err
	}
	return e.typ, nil
}

// Realpath returns p with every link resolved.
func (f *FS) Realpath(p string) (string, error) {
	_, real, err := f.resolve("realpath", p, true)
	return real, err
}

// ReadFile returns the bytes of the file p, in a slice the caller owns.
func (f *FS) ReadFile(p string) ([]byte, error) {
	file, err := f.open(p)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	data, err := io.ReadAll(file)
	if err != nil {
		return nil, &core.PathError{Op: "readFile", Path: p, Code: fsconv.Code(err)}
	}
	return data, nil
}

// ReadFilePrefix returns at most n bytes of the file p, and whether they
// are the whole file.
func (f *FS) ReadFilePrefix(p string, n int) ([]byte, bool, error) {
	if n < 0 {
		return nil, false, &core.PathError{Op: "readFile", Path: p, Code: core.EINVAL}
	}
	buf := make([]byte, n)
	got, complete, err := f.ReadFilePrefixInto(p, buf)
	if err != nil {
		return nil, false, err
	}
	return buf[:got], complete, nil
}

// ReadFilePrefixInto reads the start of the file p into buf and reports
// whether that is the whole file.
func (f *FS) ReadFilePrefixInto(p string, buf []byte) (int, bool, error) {
	file, err := f.open(p)
	if err != nil {
		return 0, false, err
	}
	defer file.Close()
	n, err := io.ReadFull(file, buf)
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return n, true, nil
	case err != nil:
		return 0, false, &core.PathError{Op: "readFile", Path: p, Code: fsconv.Code(err)}
	}
	// buf is full: the file is whole only if nothing follows.
	var one [1]byte
	m, err := file.Read(one[:])
	if m == 0 && errors.Is(err, io.EOF) {
		return n, true, nil
	}
	if m == 0 && err != nil {
		return 0, false, &core.PathError{Op: "readFile", Path: p, Code: fsconv.Code(err)}
	}
	return n, false, nil
}

// open opens the regular file p by its resolved name: EISDIR for a
// directory, EINVAL for anything else that is not a regular file.
func (f *FS) open(p string) (fs.File, error) {
	e, _, err := f.resolve("readFile", p, true)
	if err != nil {
		return nil, err
	}
	switch e.typ {
	case core.TypeFile:
	case core.TypeDir:
		return nil, &core.PathError{Op: "readFile", Path: p, Code: core.EISDIR}
	default:
		return nil, &core.PathError{Op: "readFile", Path: p, Code: core.EINVAL}
	}
	file, err := f.fsys.Open(e.name)
	if err != nil {
		return nil, &core.PathError{Op: "readFile", Path: p, Code: fsconv.Code(err)}
	}
	return file, nil
}
