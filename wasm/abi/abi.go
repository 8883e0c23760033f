// Package abi holds the wire names and numbers of the skilldex wasm ABI: the
// exports of the module, the imports it needs from its host, the errno codes
// of those imports and the layout of their packed results.
//
// The normative description is wasm/ABI.md; this package is its machine
// form. The guest (package main in wasm/ and fsadapter/hostfs), the wazero
// host in runtime-test and the JS package all use these names, and a test
// (abi_test.go) checks that ABI.md, the //go:wasmimport and
// //go:wasmexport directives and wasm/testdata/abi.golden agree with them.
//
// # Notes
//
// The directives themselves must spell names as literals (Go does not
// accept constants there), which is why the test greps them.
package abi

// Version is what [ExportVersion] returns. A host refuses a module whose
// version differs from the one it was written for. It changes whenever an
// export, an import, an errno or a layout below changes meaning; the import
// module name carries the same number ([HostModule]).
const Version = 6

// HostModule is the import module every filesystem import lives in. The
// suffix is the ABI version, so a host for another version fails at link
// time instead of misbehaving.
const HostModule = "skilldex_host_v6"

// WASIModule is the only other import module: the subset of WASI preview 1
// that the Go runtime needs (see ABI.md#wasi).
const WASIModule = "wasi_snapshot_preview1"

// Exports of the module (ABI.md#exports).
const (
	ExportInitialize = "_initialize"          // func(); run once, before any other export
	ExportMemory     = "memory"               // the linear memory
	ExportVersion    = "skilldex_abi_version" // func() -> i32
	ExportAlloc      = "skilldex_alloc"       // func(size i32) -> ptr i32
	ExportCall       = "skilldex_call"        // func(ptr i32, len i32) -> i64 (ptr<<32 | len)
)

// Imports from [HostModule] (ABI.md#imports). Every one returns an errno.
const (
	ImportReadDir  = "read_dir"  // (path_ptr, path_len, buf_ptr, buf_cap, out_len_ptr) -> errno
	ImportStat     = "stat"      // (path_ptr, path_len, out_type_ptr) -> errno
	ImportLstat    = "lstat"     // (path_ptr, path_len, out_type_ptr) -> errno
	ImportReadFile = "read_file" // (path_ptr, path_len, buf_ptr, buf_cap, out_len_ptr) -> errno
	ImportRealpath = "realpath"  // (path_ptr, path_len, buf_ptr, buf_cap, out_len_ptr) -> errno

	// ImportReadFileWithin is read_file that checks the file it opened
	// lies inside a directory (ABI.md#read_file_within, SPEC S44):
	// (within_ptr, within_len, path_ptr, path_len, buf_ptr, buf_cap, out_len_ptr) -> errno
	ImportReadFileWithin = "read_file_within"

	// ImportParseFrontmatter runs the complete frontmatter path in the
	// frontmatter module (ABI.md#parse_frontmatter):
	// (path_ptr, path_len, text_ptr, text_len, buf_ptr, buf_cap, out_len_ptr) -> errno
	ImportParseFrontmatter = "parse_frontmatter"

	// ImportSHA256 hashes a byte range for S54's digest with the host's
	// SHA-256 (ABI.md#sha256); a host may decline, and the module then
	// hashes it itself: (data_ptr, data_len, out_ptr) -> errno
	ImportSHA256 = "sha256"

	// ImportPrefetchWithin tells the host of the read_file_within calls
	// the engine is about to make (ABI.md#prefetch_within): a hint whose
	// errno the engine ignores: (list_ptr, list_len, buf_cap) -> errno
	ImportPrefetchWithin = "prefetch_within"

	// ImportFileVersion gives the version of the regular file a path names
	// (device, inode, size, mtime, ctime; ABI.md#file_version), with which
	// the engine asks whether a SKILL.md it read has changed without
	// reading it again; a host that cannot tell returns ENOSYS:
	// (path_ptr, path_len, out_ptr) -> errno
	ImportFileVersion = "file_version"
)

// FileVersionSize is the size of file_version's result: dev u64, ino u64,
// size i64, mtime i64, ctime i64 (nanoseconds since the Unix epoch), each
// little-endian, at an 8-byte-aligned out_ptr.
const FileVersionSize = 40

// The frontmatter module (ABI.md#the-frontmatter-module): the complete
// frontmatter path, a second reactor a host instantiates the first time the
// engine module calls [ImportParseFrontmatter]. It imports WASI only and
// exports memory, [ExportInitialize], [ExportVersion], [ExportAlloc] and:
const (
	// ExportFrontmatterParse is func(req_ptr i32, path_len i32, text_len i32) -> i64:
	// the path and then the text at req_ptr in, the encoded result out
	// (ptr<<32 | len).
	ExportFrontmatterParse = "skilldex_frontmatter_parse"
)

// Errno is the u32 result of a host import: 0 is success, every other value
// a failure. A host maps its own errors onto this table; anything it cannot
// map is [EIO]. The guest maps an errno it does not know to EIO too.
type Errno = uint32

// The errno table (ABI.md#errno). The POSIX names are the codes the core
// reports (core.PathError.Code).
const (
	OK           Errno = 0
	ENOENT       Errno = 1  // no such file or directory (also a dangling link)
	ENOTDIR      Errno = 2  // a path element is not a directory; read_dir of a file
	EISDIR       Errno = 3  // read_file of a directory
	EACCES       Errno = 4  // permission denied
	ELOOP        Errno = 5  // too many symbolic links
	EIO          Errno = 6  // any other failure
	EINVAL       Errno = 7  // an invalid argument (e.g. a path that is not absolute)
	EFBIG        Errno = 8  // a file too large to read
	ENAMETOOLONG Errno = 9  // a path or name too long
	EPERM        Errno = 10 // operation not permitted
	EXDEV        Errno = 11 // read_file_within: the file opened lies outside the directory
	ENOSYS       Errno = 12 // file_version: the host cannot give the file's version

	// BufferTooSmall is not a failure of the operation: the result did not
	// fit in buf_cap bytes, and *out_len holds the size needed. The guest
	// retries with a buffer at least that large. read_file has already
	// written the first buf_cap bytes of the file (ABI.md#read_file).
	BufferTooSmall Errno = 100
)

// ErrnoNames maps each failure errno to its POSIX code. [OK] and
// [BufferTooSmall] are not in it.
var ErrnoNames = map[Errno]string{
	ENOENT:       "ENOENT",
	ENOTDIR:      "ENOTDIR",
	EISDIR:       "EISDIR",
	EACCES:       "EACCES",
	ELOOP:        "ELOOP",
	EIO:          "EIO",
	EINVAL:       "EINVAL",
	EFBIG:        "EFBIG",
	ENAMETOOLONG: "ENAMETOOLONG",
	EPERM:        "EPERM",
	EXDEV:        "EXDEV",
	ENOSYS:       "ENOSYS",
}

// codes is ErrnoNames as an array, for the guest's hot path.
var codes = [...]string{"", "ENOENT", "ENOTDIR", "EISDIR", "EACCES", "ELOOP", "EIO", "EINVAL", "EFBIG", "ENAMETOOLONG", "EPERM", "EXDEV", "ENOSYS"}

// CodeOf returns the POSIX code of a failure errno: its name in
// [ErrnoNames], "EIO" for an errno not in the table (including [OK] and
// [BufferTooSmall], which are not failures).
func CodeOf(e Errno) string {
	if e != OK && e < Errno(len(codes)) {
		return codes[e]
	}
	return "EIO"
}

// ErrnoOf is the inverse of [CodeOf] for hosts: the errno of a POSIX code,
// [EIO] for a code not in the table.
func ErrnoOf(code string) Errno {
	for e, s := range codes {
		if e != 0 && s == code {
			return Errno(e)
		}
	}
	return EIO
}

// File types as stat, lstat and read_dir report them (ABI.md#types). The
// numbers equal core.FileType's.
const (
	TypeOther   uint32 = 0 // a device, socket, pipe, anything else
	TypeFile    uint32 = 1 // a regular file
	TypeDir     uint32 = 2 // a directory
	TypeSymlink uint32 = 3 // a symbolic link (lstat and read_dir only)
)

// The read_dir result is a sequence of entries, each
//
//	+--------+-----------------+----------------------+
//	| type u8| name_len u32 LE | name (name_len bytes) |
//	+--------+-----------------+----------------------+
//
// packed with no padding; the sequence ends at *out_len. Names are the raw
// bytes of the directory entry, never "." or "..".
const DirEntryHeader = 5

// Limits the guest applies (ABI.md#limits).
const (
	MaxRequest = 64 << 20  // skilldex_alloc returns 0 above this size
	MaxResult  = 256 << 20 // the guest fails an import with EFBIG rather than grow a buffer beyond this
)

// RequestBuffer is the buffer skilldex_alloc hands out, grown to hold size
// bytes: buf itself when it is large enough, else a new one of at least
// 4 KiB, resliced to its capacity. ok is false over [MaxRequest] (alloc
// then returns 0). Both modules keep their request buffer this way.
func RequestBuffer(buf []byte, size uint32) (_ []byte, ok bool) {
	if size > MaxRequest {
		return buf, false
	}
	if uint32(cap(buf)) < size || buf == nil {
		buf = make([]byte, max(int(size), 4096))
	}
	return buf[:cap(buf)], true
}

// Rehash is a copy of m made under the running instance's hash key. Both
// modules are snapshots whose _initialize draws a new key
// (ABI.md#the-module), so a map a package initialiser filled no longer
// finds its keys; each module rebuilds those it reads at its first call.
// Iterating a map does not hash, so the copy holds every entry.
func Rehash[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
