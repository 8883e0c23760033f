package core

import "path"

// Reading a file only when the file actually opened lies inside a directory
// (SPEC S44). A path checked with Realpath and then read in a second call
// can be swapped for a link in between; the check has to be made on the
// file the read opened, which only the FS can do ([ContainedReader]). The
// callers check the realpath (and the type) first in any case; over an FS
// without that capability that check is all there is, which is exact for a
// tree that does not change during the call (memfs, or MemoryFS in JS,
// where nothing runs between two calls).

// ContainedReader is an optional capability of an [FS] (SPEC S44): read a
// regular file only if the file actually opened lies inside a directory.
// osfs implements it on the opened descriptor (Linux: the kernel's name for
// it; elsewhere: its device and inode against the realpath's), the wasm
// host FS through the read_file_within import (wasm/ABI.md), which the JS
// and wazero hosts implement the same way.
//
// ReadFileWithin opens path, checks that what it opened is a regular file
// (a directory: EISDIR; a FIFO, device or socket: EINVAL, and the open
// must not block on a FIFO) and that its realpath lies inside within (an
// absolute realpath the engine computed earlier, compared as a string,
// never resolved again), else EXDEV. It then reads at most len(buf) bytes
// into buf. n is the number of bytes read; size is the file's size as the
// opened file reports it (when the file is longer than buf, size >
// len(buf)). Paths in errors are path.
type ContainedReader interface {
	FS
	ReadFileWithin(within, path string, buf []byte) (n int, size int64, err error)
}

// Prefetcher is an optional hint of an [FS]: discovery names the checked
// reads it is about to make, in the order it will make them, so a host can
// make them ahead (on another thread, while the engine parses the files
// read before). paths holds each path followed by a NUL (a byte no path
// holds); each read is ReadFileWithin(p, p, a buffer of cap bytes), a
// SKILL.md read against its own expected realpath. It changes no result: a
// host answers a later [ContainedReader.ReadFileWithin] from a read made
// ahead only when within, path and len(buf) are a listed read's, and then
// exactly as that read answered (wasm/ABI.md#prefetch_within). Discovery
// may skip any listed read; a new hint replaces the last.
type Prefetcher interface {
	FS
	PrefetchWithin(paths []byte, cap int)
}

// ReadFileWithin is [ContainedReader.ReadFileWithin] over any FS: fsys's
// own check of the file it opens when fsys is a ContainedReader. Otherwise
// the realpath of p, made of its folder's realpath and its name (the
// name's own realpath when it is a link), must lie inside within (else
// EXDEV) and p must be a regular file (a directory: EISDIR; anything
// else: EINVAL); then at most len(buf) bytes are read. The second form is
// exact for a tree that does not change during the call (memfs), and asks
// the FS only what discovery has asked it before reading (the folder's
// realpath, or the name's lstat), so an FS that fails one call alone
// gives the same result through it as without it. The hosts of the wasm
// module answer read_file_within with it: since ABI 3 the module relies on
// that check (wasm/ABI.md#read_file_within), reading a plain SKILL.md
// against the exact realpath it must have instead of lstat-ing it first.
func ReadFileWithin(fsys FS, within, p string, buf []byte) (n int, size int64, err error) {
	if cr, ok := fsys.(ContainedReader); ok {
		return cr.ReadFileWithin(within, p, buf)
	}
	if code := checkWithin(fsys, within, p); code != "" {
		return 0, 0, &PathError{Op: "readFile", Path: p, Code: code}
	}
	data, complete, err := ReadFilePrefix(fsys, p, buf)
	if err != nil {
		return 0, 0, err
	}
	size = int64(len(data))
	if !complete {
		size = int64(len(buf)) + 1
	}
	return copy(buf, data), size, nil
}

// ReadFilePrefix reads the start of p, at most len(buf) bytes, by the
// fastest means fsys has: into buf ([PrefixReaderInto]), a prefix
// ([PrefixReader]), or the whole file, which it returns whole (complete).
func ReadFilePrefix(fsys FS, p string, buf []byte) (data []byte, complete bool, err error) {
	if pri, ok := fsys.(PrefixReaderInto); ok {
		var m int
		if m, complete, err = pri.ReadFilePrefixInto(p, buf); err == nil && (m < 0 || m > len(buf)) {
			err = &PathError{Op: "readFile", Path: p, Code: EIO} // a broken FS
		}
		if err == nil {
			data = buf[:m]
		}
		return data, complete, err
	}
	if pr, ok := fsys.(PrefixReader); ok {
		return pr.ReadFilePrefix(p, len(buf))
	}
	data, err = fsys.ReadFile(p)
	return data, true, err
}

// checkWithin is ReadFileWithin's check over an FS that is not a
// ContainedReader: "" when p may be read, else the code of the refusal.
func checkWithin(fsys FS, within, p string) string {
	realDir, err := fsys.Realpath(path.Dir(p))
	if err != nil {
		return POSIXCode(err)
	}
	real := realJoin(realDir, path.Base(p))
	t, err := fsys.Lstat(p)
	if err == nil && t == TypeSymlink {
		if real, err = fsys.Realpath(p); err == nil {
			t, err = fsys.Stat(p)
		}
	}
	switch {
	case err != nil:
		return POSIXCode(err)
	case !pathWithin(real, within):
		return EXDEV
	case t == TypeDir:
		return EISDIR
	case t != TypeFile:
		return EINVAL
	}
	return ""
}

// EXDEV is the code of a read refused because the file opened lies outside
// the directory it had to be in (as openat2's RESOLVE_BENEATH reports it).
const EXDEV = "EXDEV"

// errTooLarge is the error of a bounded read whose file is over its limit;
// size is the file's size.
type errTooLarge struct {
	path string
	size int64
}

func (e *errTooLarge) Error() string { return "readFile " + e.path + ": EFBIG" }

// readFileWithin reads the whole regular file p, which must lie inside the
// realpath within (checked on the opened file when fsys can,
// [ContainedReader], else by [ReadFileWithin]'s check of its realpath just
// before the read, as a wasm host does for such a filesystem: the same
// answer natively and in wasm, S42), when it holds at most limit bytes. A
// larger file is an *errTooLarge with its size. A file opened outside
// within is a *PathError with EXDEV.
func readFileWithin(fsys FS, within, p string, limit int) ([]byte, error) {
	buf := make([]byte, min(limit+1, 64<<10))
	for {
		n, size, err := ReadFileWithin(fsys, within, p, buf)
		if err != nil {
			return nil, err
		}
		if n < 0 || n > len(buf) {
			return nil, &PathError{Op: "readFile", Path: p, Code: EIO} // a broken FS
		}
		if size > int64(limit) || n > limit {
			return nil, &errTooLarge{p, max(size, int64(n))}
		}
		if size <= int64(n) || n < len(buf) {
			return buf[:n:n], nil
		}
		// The file is longer than buf and at most limit: read it again
		// into a buffer of its size (one more byte shows growth), at
		// least twice the last one (a /proc file reports size 0).
		buf = make([]byte, min(max(int(size)+1, 2*len(buf)), limit+1))
	}
}

// withinPrefixFS is fsys whose prefix reads check the file opened against
// within ([ReadFileWithin]): discovery reads a SKILL.md through it, so a
// SKILL.md swapped for a link after its checks is never read.
type withinPrefixFS struct {
	FS
	within string
}

func (w *withinPrefixFS) ReadFilePrefixInto(p string, buf []byte) (int, bool, error) {
	n, size, err := ReadFileWithin(w.FS, w.within, p, buf)
	if err != nil {
		return 0, false, err
	}
	return n, size <= int64(n) && n <= len(buf), nil
}
