//go:build wasip1

package hostfs

import (
	"strings"
	"sync"
	"unsafe"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/wasm/abi"
)

// The imports of module abi.HostModule. The names must be literals; the
// test in wasm/abi checks them against the constants. See ABI.md#imports.

// hostReadDir lists the directory at path into buf (ABI.md#read_dir).
//
// # Parameters
//
//   - path, pathLen: the absolute, clean, slash-separated path (UTF-8 bytes)
//   - buf, bufCap: where the packed entries go (abi.DirEntryHeader layout)
//   - outLen: set to the bytes written, or the bytes needed with BufferTooSmall
//
// Result: OK, BufferTooSmall, or a failure errno (ENOENT, ENOTDIR, EACCES,
// ELOOP, EIO, ...).
//
//go:wasmimport skilldex_host_v6 read_dir
func hostReadDir(path unsafe.Pointer, pathLen uint32, buf unsafe.Pointer, bufCap uint32, outLen *uint32) uint32

// hostStat writes the type of path, following symlinks, to *outType
// (ABI.md#stat). Result: OK or a failure errno (ENOENT, ENOTDIR, ELOOP, ...).
//
//go:wasmimport skilldex_host_v6 stat
func hostStat(path unsafe.Pointer, pathLen uint32, outType *uint32) uint32

// hostLstat is hostStat without following a final symlink (ABI.md#lstat).
//
//go:wasmimport skilldex_host_v6 lstat
func hostLstat(path unsafe.Pointer, pathLen uint32, outType *uint32) uint32

// hostReadFileWithin is hostReadFile for a file that must lie inside the
// directory within (a realpath, compared as a string): the host checks the
// file it actually opened and answers EXDEV when it lies outside
// (ABI.md#read_file_within, SPEC S44). When version is not 0, the host
// also writes there the version of the file it opened (abi.FileVersionSize
// bytes, zeros when it cannot tell).
//
//go:wasmimport skilldex_host_v6 read_file_within
func hostReadFileWithin(within unsafe.Pointer, withinLen uint32, path unsafe.Pointer, pathLen uint32, buf unsafe.Pointer, bufCap uint32, outLen *uint32, version unsafe.Pointer) uint32

// hostPrefetchWithin tells the host of the read_file_within calls the
// engine is about to make (ABI.md#prefetch_within): a hint, whose result
// the engine ignores.
//
//go:wasmimport skilldex_host_v6 prefetch_within
func hostPrefetchWithin(list unsafe.Pointer, listLen, bufCap uint32) uint32

// hostReadFile writes the first min(size, bufCap) bytes of the file at path
// into buf (ABI.md#read_file). OK: *outLen is the file's size, all of it
// written. BufferTooSmall: the file has more than bufCap bytes, the first
// bufCap are written, and *outLen is the size (at least bufCap+1).
// Failures: ENOENT, EISDIR, EACCES, ELOOP, EIO, ...
//
//go:wasmimport skilldex_host_v6 read_file
func hostReadFile(path unsafe.Pointer, pathLen uint32, buf unsafe.Pointer, bufCap uint32, outLen *uint32) uint32

// hostRealpath writes the canonical path of path (absolute, no symlinks, no
// . or ..) into buf (ABI.md#realpath). OK: *outLen is its length.
// BufferTooSmall: *outLen is the length needed. Failures: ENOENT, ELOOP, ...
//
//go:wasmimport skilldex_host_v6 realpath
func hostRealpath(path unsafe.Pointer, pathLen uint32, buf unsafe.Pointer, bufCap uint32, outLen *uint32) uint32

// hostFileVersion writes the version of the regular file path names,
// following no link at its last element, to out (abi.FileVersionSize bytes, ABI.md#file_version).
// Result: OK, ENOSYS when the host cannot tell, or the errno of a stat
// (EISDIR for a directory, EINVAL for another non-regular file).
//
//go:wasmimport skilldex_host_v6 file_version
func hostFileVersion(path unsafe.Pointer, pathLen uint32, out unsafe.Pointer) uint32

// FS is a [core.FS], [core.PrefixReader] and [core.PrefixReaderInto] over the host imports. The zero
// value is ready to use.
type FS struct {
	mu      sync.Mutex
	scratch []byte // read_dir and realpath results; grows, never shrinks below scratchSize
	outLen  uint32
	outType uint32
	traffic uint64 // see Traffic
	// trafficAt and onTraffic: see OnTraffic
	trafficAt uint64
	onTraffic func()
	hint      []byte // the last prefetch_within list, its memory reused
	version   [5]uint64
}

// callTraffic is what [FS.Traffic] counts for one import call besides the
// bytes it returns: the strings and structs the engine builds around a
// result (a directory entry, a path) come to about this much.
const callTraffic = 256

// Traffic is a running measure of what the host has handed the module
// through f: the bytes of every result (listings, paths, file contents)
// plus callTraffic per import call. It grows roughly as the engine
// allocates, at almost no cost, so the module reads the Go runtime's exact
// allocation counter (which stops the world) only once a call has done
// enough to be worth a collection (wasm/gc.go).
func (f *FS) Traffic() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.traffic
}

// OnTraffic makes fn run once, after the import call that brings
// [FS.Traffic] to at or beyond it; a nil fn cancels. fn runs with f
// unlocked, so it may use f (and arm the next OnTraffic). The module uses
// it to change how it collects garbage once a call has moved a lot of data
// (wasm/gc.go).
func (f *FS) OnTraffic(at uint64, fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.trafficAt, f.onTraffic = at, fn
}

// unlock unlocks f, then runs the OnTraffic function if its time has come.
func (f *FS) unlock() {
	fn := f.onTraffic
	if fn == nil || f.traffic < f.trafficAt {
		f.mu.Unlock()
		return
	}
	f.onTraffic = nil
	f.mu.Unlock()
	fn()
}

// scratchSize is the initial scratch buffer: about 2000 directory entries.
const scratchSize = 64 << 10

var (
	_ core.FS               = (*FS)(nil)
	_ core.PrefixReader     = (*FS)(nil)
	_ core.PrefixReaderInto = (*FS)(nil)
	_ core.ContainedReader  = (*FS)(nil)
	_ core.Prefetcher       = (*FS)(nil)
	_ core.VersionedReader  = (*FS)(nil)
	_ core.Versioner        = (*FS)(nil)
)

// New returns an FS over the host imports.
func New() *FS { return &FS{} }

func strPtr(s string) unsafe.Pointer { return unsafe.Pointer(unsafe.StringData(s)) }

func bufPtr(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

func fail(op, path string, e abi.Errno) error {
	return &core.PathError{Op: op, Path: path, Code: abi.CodeOf(e)}
}

// violation reports a host that broke the ABI. It panics: the export
// recovers it into an INTERNAL error reply.
func violation(op, path, what string) {
	panic("hostfs: host broke the ABI in " + op + " " + path + ": " + what)
}

// grow returns the size of the next buffer after BufferTooSmall: at least
// needed, at least twice the last one; 0 when that would exceed MaxResult.
func grow(last int, needed uint32) int {
	n := 2 * last
	if int(needed) > n {
		n = int(needed)
	}
	if n > abi.MaxResult {
		return 0
	}
	return n
}

// call5 runs one of the (path, buf, cap, &outLen) imports into f.scratch,
// growing it on BufferTooSmall. It returns the filled part of the scratch.
func (f *FS) call5(op, path string, imp func(unsafe.Pointer, uint32, unsafe.Pointer, uint32, *uint32) uint32) ([]byte, error) {
	if f.scratch == nil {
		f.scratch = make([]byte, scratchSize)
	}
	for {
		f.outLen = 0
		e := imp(strPtr(path), uint32(len(path)), bufPtr(f.scratch), uint32(len(f.scratch)), &f.outLen)
		f.traffic += callTraffic
		switch e {
		case abi.OK:
			if int(f.outLen) > len(f.scratch) {
				violation(op, path, "out_len exceeds buf_cap")
			}
			f.traffic += uint64(f.outLen)
			return f.scratch[:f.outLen], nil
		case abi.BufferTooSmall:
			if int(f.outLen) <= len(f.scratch) {
				violation(op, path, "BufferTooSmall with out_len <= buf_cap")
			}
			n := grow(len(f.scratch), f.outLen)
			if n == 0 {
				return nil, fail(op, path, abi.EFBIG)
			}
			f.scratch = make([]byte, n)
		default:
			return nil, fail(op, path, e)
		}
	}
}

// ReadDir lists a directory; entries are typed with lstat semantics.
func (f *FS) ReadDir(path string) ([]core.DirEntry, error) {
	f.mu.Lock()
	defer f.unlock()
	b, err := f.call5("readDir", path, hostReadDir)
	if err != nil {
		return nil, err
	}
	// Count first, so the result is allocated once.
	count, total := 0, 0
	for i := 0; i < len(b); count++ {
		if len(b)-i < abi.DirEntryHeader {
			violation("readDir", path, "truncated entry header")
		}
		n := int(b[i+1]) | int(b[i+2])<<8 | int(b[i+3])<<16 | int(b[i+4])<<24
		i += abi.DirEntryHeader
		if n < 0 || n > len(b)-i {
			violation("readDir", path, "entry name past out_len")
		}
		i += n
		total += n
	}
	entries := make([]core.DirEntry, 0, count)
	// The names share one allocation (a string each was one allocation
	// per entry); a strings.Builder never changes what it wrote.
	var names strings.Builder
	names.Grow(total)
	for i := 0; i < len(b); {
		t := b[i]
		n := int(b[i+1]) | int(b[i+2])<<8 | int(b[i+3])<<16 | int(b[i+4])<<24
		i += abi.DirEntryHeader
		typ := core.TypeOther
		if uint32(t) <= abi.TypeSymlink {
			typ = core.FileType(t)
		}
		start := names.Len()
		names.Write(b[i : i+n])
		entries = append(entries, core.DirEntry{Name: names.String()[start:], Type: typ})
		i += n
	}
	return entries, nil
}

func (f *FS) stat(op, path string, imp func(unsafe.Pointer, uint32, *uint32) uint32) (core.FileType, error) {
	f.mu.Lock()
	defer f.unlock()
	f.outType = 0
	f.traffic += callTraffic
	if e := imp(strPtr(path), uint32(len(path)), &f.outType); e != abi.OK {
		if e == abi.BufferTooSmall {
			violation(op, path, "BufferTooSmall from a stat")
		}
		return core.TypeOther, fail(op, path, e)
	}
	if f.outType > abi.TypeSymlink {
		return core.TypeOther, nil
	}
	return core.FileType(f.outType), nil
}

// Stat returns the type of path, following symlinks.
func (f *FS) Stat(path string) (core.FileType, error) { return f.stat("stat", path, hostStat) }

// Lstat returns the type of path, not following a final symlink.
func (f *FS) Lstat(path string) (core.FileType, error) { return f.stat("lstat", path, hostLstat) }

// Realpath returns the canonical form of path.
func (f *FS) Realpath(path string) (string, error) {
	f.mu.Lock()
	defer f.unlock()
	b, err := f.call5("realpath", path, hostRealpath)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// readInto reads the start of a file into buf. It returns the bytes
// written and, when the file is larger than buf, complete == false and the
// file's size as the host reported it.
func (f *FS) readInto(path string, buf []byte) (n int, size uint32, complete bool, err error) {
	f.outLen = 0
	e := hostReadFile(strPtr(path), uint32(len(path)), bufPtr(buf), uint32(len(buf)), &f.outLen)
	f.traffic += callTraffic
	switch e {
	case abi.OK:
		if int(f.outLen) > len(buf) {
			violation("readFile", path, "out_len exceeds buf_cap")
		}
		f.traffic += uint64(f.outLen)
		return int(f.outLen), f.outLen, true, nil
	case abi.BufferTooSmall:
		if int(f.outLen) <= len(buf) {
			violation("readFile", path, "BufferTooSmall with out_len <= buf_cap")
		}
		f.traffic += uint64(len(buf))
		return len(buf), f.outLen, false, nil
	}
	return 0, 0, false, fail("readFile", path, e)
}

// ReadFile returns the whole content of a file, in a slice the caller owns.
func (f *FS) ReadFile(path string) ([]byte, error) {
	f.mu.Lock()
	defer f.unlock()
	if f.scratch == nil {
		f.scratch = make([]byte, scratchSize)
	}
	// Most files fit the scratch buffer: one round trip and one copy.
	n, size, complete, err := f.readInto(path, f.scratch)
	if err != nil {
		return nil, err
	}
	if complete {
		return append([]byte(nil), f.scratch[:n]...), nil
	}
	last := len(f.scratch)
	for {
		c := grow(last, size)
		if c == 0 {
			return nil, fail("readFile", path, abi.EFBIG)
		}
		buf := make([]byte, c)
		n, size, complete, err = f.readInto(path, buf)
		if err != nil {
			return nil, err
		}
		if complete {
			return buf[:n:n], nil
		}
		last = c // the file grew between the two reads
	}
}

// ReadFilePrefix reads at most n bytes of a file in one round trip;
// complete reports whether they are the whole file. The slice is the
// caller's.
func (f *FS) ReadFilePrefix(path string, n int) ([]byte, bool, error) {
	f.mu.Lock()
	defer f.unlock()
	if n < 0 {
		n = 0
	}
	buf := make([]byte, n)
	m, _, complete, err := f.readInto(path, buf)
	if err != nil {
		return nil, false, err
	}
	return buf[:m:m], complete, nil
}

// ReadFilePrefixInto reads at most len(buf) bytes of a file into buf in one
// round trip, straight from the host into buf; complete reports whether
// they are the whole file.
func (f *FS) ReadFilePrefixInto(path string, buf []byte) (int, bool, error) {
	f.mu.Lock()
	defer f.unlock()
	m, _, complete, err := f.readInto(path, buf)
	if err != nil {
		return 0, false, err
	}
	return m, complete, nil
}

// ReadFileWithin reads at most len(buf) bytes of the regular file at path
// into buf when the file the host opened lies inside within
// ([core.ContainedReader]); size is the file's size as the host reports it
// (more than len(buf) when the file goes on).
func (f *FS) ReadFileWithin(within, path string, buf []byte) (int, int64, error) {
	n, size, _, err := f.readFileWithin(within, path, buf, false)
	return n, size, err
}

// ReadFileWithinVersion is ReadFileWithin that also gives the version of
// the file the host opened ([core.VersionedReader]); zero when the host
// cannot tell.
func (f *FS) ReadFileWithinVersion(within, path string, buf []byte) (int, int64, core.FileVersion, error) {
	return f.readFileWithin(within, path, buf, true)
}

func (f *FS) readFileWithin(within, path string, buf []byte, versioned bool) (int, int64, core.FileVersion, error) {
	f.mu.Lock()
	defer f.unlock()
	f.outLen = 0
	var version unsafe.Pointer
	if versioned {
		f.version = [5]uint64{}
		version = unsafe.Pointer(&f.version)
	}
	e := hostReadFileWithin(strPtr(within), uint32(len(within)), strPtr(path), uint32(len(path)), bufPtr(buf), uint32(len(buf)), &f.outLen, version)
	f.traffic += callTraffic
	var n int
	var size int64
	switch e {
	case abi.OK:
		if int(f.outLen) > len(buf) {
			violation("readFile", path, "out_len exceeds buf_cap")
		}
		f.traffic += uint64(f.outLen)
		n, size = int(f.outLen), int64(f.outLen)
	case abi.BufferTooSmall:
		if int(f.outLen) <= len(buf) {
			violation("readFile", path, "BufferTooSmall with out_len <= buf_cap")
		}
		f.traffic += uint64(len(buf))
		n, size = len(buf), int64(f.outLen)
	default:
		return 0, 0, core.FileVersion{}, fail("readFile", path, e)
	}
	var v core.FileVersion
	if versioned {
		v = f.fileVersion()
	}
	return n, size, v, nil
}

// PrefetchWithin hands the host the list of reads (ABI.md#prefetch_within).
func (f *FS) PrefetchWithin(paths []byte, cap int) {
	f.mu.Lock()
	hostPrefetchWithin(bufPtr(paths), uint32(len(paths)), uint32(cap))
	f.traffic += callTraffic + uint64(len(paths))
	f.unlock()
}

// FileVersion returns the version of the regular file path names, through
// the file_version import; ENOSYS when the host cannot tell.
func (f *FS) FileVersion(path string) (core.FileVersion, error) {
	f.mu.Lock()
	defer f.unlock()
	f.traffic += callTraffic
	f.version = [5]uint64{}
	if e := hostFileVersion(strPtr(path), uint32(len(path)), unsafe.Pointer(&f.version)); e != abi.OK {
		if e == abi.BufferTooSmall {
			violation("fileVersion", path, "BufferTooSmall from file_version")
		}
		return core.FileVersion{}, fail("fileVersion", path, e)
	}
	return f.fileVersion(), nil
}

// fileVersion is the version the host wrote to f.version.
func (f *FS) fileVersion() core.FileVersion {
	v := &f.version
	return core.FileVersion{Dev: v[0], Ino: v[1], Size: int64(v[2]), Mtime: int64(v[3]), Ctime: int64(v[4])}
}
