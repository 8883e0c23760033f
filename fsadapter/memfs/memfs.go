// Package memfs is an in-memory [core.FS] with files, directories and
// symbolic links, for tests and for hosts that hold a skill tree in memory.
//
// It resolves paths the way Linux does, so that the conformance corpus gives
// the same results over memfs and over the real OS (package osfs): symlink
// targets may be relative (to the link's directory) or absolute (to the root
// of this FS), a ".." in a target is resolved physically (from the directory
// the walk has reached, not lexically), at most 40 symlinks are followed per
// call, and every failure carries the code the Linux kernel would give:
//
//   - a missing name: ENOENT (also a dangling link, and an empty target)
//   - a name under a regular file: ENOTDIR
//   - more than 40 links followed (a loop, or a long chain): ELOOP
//   - ReadFile of a directory: EISDIR; ReadDir of a file: ENOTDIR
//   - a path that is not absolute: EINVAL
//
// # Building a tree
//
// [New] returns an empty FS holding only the root directory "/". [FS.WriteFile],
// [FS.Mkdir] and [FS.Symlink] add entries, creating missing parent directories.
// Builder methods resolve the parent directory following symlinks, as the
// OS would.
//
// # Concurrency
//
// All methods are safe for concurrent use. Reads share a read lock and never
// allocate shared state; builders take the write lock.
//
// # Ownership
//
// WriteFile copies its data. ReadFile and ReadFilePrefix return fresh slices
// the caller may modify.
package memfs

import (
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/internal/linkwalk"
)

// FS is an in-memory filesystem. The zero value is not usable; call [New].
type FS struct {
	mu   sync.RWMutex
	root *node
}

type node struct {
	typ      core.FileType
	data     []byte           // TypeFile
	children map[string]*node // TypeDir
	target   string           // TypeSymlink
	serial   uint64           // TypeFile: this write's number, its version
}

// writes numbers every file written, in every FS, so that two files'
// versions are equal only when they are the same write.
var writes atomic.Uint64

var (
	_ core.FS           = (*FS)(nil)
	_ core.PrefixReader = (*FS)(nil)
	_ core.Versioner    = (*FS)(nil)
)

// New returns an FS holding only an empty root directory.
func New() *FS {
	return &FS{root: &node{typ: core.TypeDir, children: map[string]*node{}}}
}

// WriteFile creates or replaces the regular file at the absolute path p,
// creating missing parent directories. It copies data. It fails with EISDIR
// when p is a directory and, unlike the OS, with EEXIST when p is a
// symlink (it never writes through a link).
func (fsys *FS) WriteFile(p string, data []byte) error {
	return fsys.add("writeFile", p, &node{typ: core.TypeFile, data: append([]byte{}, data...), serial: writes.Add(1)})
}

// Mkdir creates the directory p and any missing parents, like mkdir -p.
// An existing directory (or a link to one) is not an error.
func (fsys *FS) Mkdir(p string) error {
	if !strings.HasPrefix(p, "/") {
		return &core.PathError{Op: "mkdir", Path: p, Code: core.EINVAL}
	}
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	_, err := fsys.mkdirAll("mkdir", p)
	return err
}

// Symlink creates a symbolic link at p pointing to target, creating missing
// parent directories. target is stored as given: a relative target is
// resolved from p's directory, an absolute one from the root of fsys.
// Like the OS, it fails with EEXIST when p already exists.
func (fsys *FS) Symlink(target, p string) error {
	return fsys.add("symlink", p, &node{typ: core.TypeSymlink, target: target})
}

// Remove removes the entry at the absolute path p (a file, a symlink, not
// followed, or a directory with everything in it), like rm -r. It fails
// with ENOENT when there is none.
func (fsys *FS) Remove(p string) error {
	if !strings.HasPrefix(p, "/") || path.Clean(p) == "/" {
		return &core.PathError{Op: "remove", Path: p, Code: core.EINVAL}
	}
	p = path.Clean(p)
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	dir, _, code := fsys.resolve(path.Dir(p), true)
	if code == "" && dir.typ != core.TypeDir {
		code = core.ENOTDIR
	}
	if code == "" && dir.children[path.Base(p)] == nil {
		code = core.ENOENT
	}
	if code != "" {
		return &core.PathError{Op: "remove", Path: p, Code: code}
	}
	delete(dir.children, path.Base(p))
	return nil
}

// Rename moves the entry at oldPath (not followed) to newPath, keeping it:
// a file keeps its version, as rename(2) keeps an inode. newPath's folder
// must exist and newPath must not (EEXIST).
func (fsys *FS) Rename(oldPath, newPath string) error {
	return fsys.move("rename", oldPath, newPath, false)
}

// Exchange swaps the entries at a and b (not followed), as
// renameat2(RENAME_EXCHANGE) does: both must exist.
func (fsys *FS) Exchange(a, b string) error {
	return fsys.move("exchange", a, b, true)
}

func (fsys *FS) move(op, a, b string, exchange bool) error {
	for _, p := range []string{a, b} {
		if !strings.HasPrefix(p, "/") || path.Clean(p) == "/" {
			return &core.PathError{Op: op, Path: p, Code: core.EINVAL}
		}
	}
	a, b = path.Clean(a), path.Clean(b)
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	parent := func(p string) (*node, error) {
		dir, _, code := fsys.resolve(path.Dir(p), true)
		if code == "" && dir.typ != core.TypeDir {
			code = core.ENOTDIR
		}
		if code != "" {
			return nil, &core.PathError{Op: op, Path: p, Code: code}
		}
		return dir, nil
	}
	da, err := parent(a)
	if err != nil {
		return err
	}
	db, err := parent(b)
	if err != nil {
		return err
	}
	na, nb := da.children[path.Base(a)], db.children[path.Base(b)]
	switch {
	case na == nil:
		return &core.PathError{Op: op, Path: a, Code: core.ENOENT}
	case exchange && nb == nil:
		return &core.PathError{Op: op, Path: b, Code: core.ENOENT}
	case !exchange && nb != nil:
		return &core.PathError{Op: op, Path: b, Code: "EEXIST"}
	}
	delete(da.children, path.Base(a))
	if nb != nil {
		da.children[path.Base(a)] = nb
	}
	db.children[path.Base(b)] = na
	return nil
}

// add links n into the tree at the absolute path p.
func (fsys *FS) add(op, p string, n *node) error {
	if !strings.HasPrefix(p, "/") || path.Clean(p) == "/" {
		return &core.PathError{Op: op, Path: p, Code: core.EINVAL}
	}
	p = path.Clean(p)
	fsys.mu.Lock()
	defer fsys.mu.Unlock()
	dir, err := fsys.mkdirAll(op, path.Dir(p))
	if err != nil {
		return err
	}
	name := path.Base(p)
	if old, ok := dir.children[name]; ok {
		switch {
		case n.typ == core.TypeFile && old.typ == core.TypeFile:
			// Replace the contents.
		case n.typ == core.TypeFile && old.typ == core.TypeDir:
			return &core.PathError{Op: op, Path: p, Code: core.EISDIR}
		default:
			return &core.PathError{Op: op, Path: p, Code: "EEXIST"}
		}
	}
	dir.children[name] = n
	return nil
}

// mkdirAll returns the directory at p, creating it and its parents.
// The caller holds the write lock.
func (fsys *FS) mkdirAll(op, p string) (*node, error) {
	n, _, code := fsys.resolve(p, true)
	switch code {
	case "":
		if n.typ != core.TypeDir {
			return nil, &core.PathError{Op: op, Path: p, Code: core.ENOTDIR}
		}
		return n, nil
	case core.ENOENT:
		if p == "/" {
			return fsys.root, nil
		}
		parent, err := fsys.mkdirAll(op, path.Dir(p))
		if err != nil {
			return nil, err
		}
		name := path.Base(p)
		if _, ok := parent.children[name]; ok {
			// A dangling link is in the way.
			return nil, &core.PathError{Op: op, Path: p, Code: "EEXIST"}
		}
		d := &node{typ: core.TypeDir, children: map[string]*node{}}
		parent.children[name] = d
		return d, nil
	}
	return nil, &core.PathError{Op: op, Path: p, Code: code}
}

// resolve walks the absolute path p from the root, following symlinks in
// every component and, when followLast is set, in the last one too
// (linkwalk.Resolve). It returns the node, its real path, or a POSIX code.
// The caller holds a lock.
func (fsys *FS) resolve(p string, followLast bool) (*node, string, string) {
	return linkwalk.Resolve(fsys.root, p, followLast, childNode)
}

// childNode is the [linkwalk.Child] of a node tree.
func childNode(dir *node, name string) (*node, core.FileType, string, string) {
	child, ok := dir.children[name]
	if !ok {
		return nil, core.TypeOther, "", core.ENOENT
	}
	return child, child.typ, child.target, ""
}

func (fsys *FS) lookup(op, p string, followLast bool) (*node, string, error) {
	fsys.mu.RLock()
	n, real, code := fsys.resolve(p, followLast)
	fsys.mu.RUnlock()
	if code != "" {
		return nil, "", &core.PathError{Op: op, Path: p, Code: code}
	}
	return n, real, nil
}

// ReadDir lists the directory p (following symlinks), in name order, typing
// each entry with lstat semantics.
func (fsys *FS) ReadDir(p string) ([]core.DirEntry, error) {
	fsys.mu.RLock()
	defer fsys.mu.RUnlock()
	n, _, code := fsys.resolve(p, true)
	if code == "" && n.typ != core.TypeDir {
		code = core.ENOTDIR
	}
	if code != "" {
		return nil, &core.PathError{Op: "readDir", Path: p, Code: code}
	}
	out := make([]core.DirEntry, 0, len(n.children))
	for name, c := range n.children {
		out = append(out, core.DirEntry{Name: name, Type: c.typ})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Stat reports the type of p, following symlinks.
func (fsys *FS) Stat(p string) (core.FileType, error) {
	n, _, err := fsys.lookup("stat", p, true)
	if err != nil {
		return core.TypeOther, err
	}
	return n.typ, nil
}

// Lstat reports the type of p without following a symlink in its last
// component.
func (fsys *FS) Lstat(p string) (core.FileType, error) {
	n, _, err := fsys.lookup("lstat", p, false)
	if err != nil {
		return core.TypeOther, err
	}
	return n.typ, nil
}

// ReadFile returns a copy of the contents of the file p.
func (fsys *FS) ReadFile(p string) ([]byte, error) {
	data, _, err := fsys.readFile("readFile", p, -1)
	return data, err
}

// ReadFilePrefix returns a copy of at most n bytes of the file p, and
// whether that is the whole file.
func (fsys *FS) ReadFilePrefix(p string, n int) ([]byte, bool, error) {
	if n < 0 {
		return nil, false, &core.PathError{Op: "readFile", Path: p, Code: core.EINVAL}
	}
	return fsys.readFile("readFile", p, n)
}

func (fsys *FS) readFile(op, p string, n int) ([]byte, bool, error) {
	fsys.mu.RLock()
	defer fsys.mu.RUnlock()
	f, _, code := fsys.resolve(p, true)
	if code == "" && f.typ == core.TypeDir {
		code = core.EISDIR
	}
	if code != "" {
		return nil, false, &core.PathError{Op: op, Path: p, Code: code}
	}
	data := f.data
	complete := true
	if n >= 0 && n < len(data) {
		data, complete = data[:n], false
	}
	return append([]byte{}, data...), complete, nil
}

// Realpath returns the absolute path of p with every symlink resolved.
func (fsys *FS) Realpath(p string) (string, error) {
	_, real, err := fsys.lookup("realpath", p, true)
	return real, err
}

// FileVersion returns the version of the file p names, following no link
// at its last element ([core.Versioner]): the number of the write that
// made it. Nothing changes a file here but WriteFile, so equal versions are
// equal bytes, whenever they were taken (the change time is zero: never
// too recent).
func (fsys *FS) FileVersion(p string) (core.FileVersion, error) {
	fsys.mu.RLock()
	defer fsys.mu.RUnlock()
	f, _, code := fsys.resolve(p, false)
	switch {
	case code != "":
	case f.typ == core.TypeDir:
		code = core.EISDIR
	case f.typ != core.TypeFile:
		code = core.EINVAL
	}
	if code != "" {
		return core.FileVersion{}, &core.PathError{Op: "fileVersion", Path: p, Code: code}
	}
	return core.FileVersion{Ino: f.serial, Size: int64(len(f.data)), Mtime: int64(f.serial)}, nil
}
