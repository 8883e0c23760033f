package core

// FileType is what a filesystem entry is, as lstat or stat reports it (SPEC S2).
type FileType uint8

const (
	TypeOther   FileType = iota // a device, socket, pipe, or anything else
	TypeFile                    // a regular file
	TypeDir                     // a directory
	TypeSymlink                 // a symbolic link (only from ReadDir and Lstat)
)

// String returns the SPEC S2 spelling: "file", "dir", "symlink" or "other".
func (t FileType) String() string {
	switch t {
	case TypeFile:
		return "file"
	case TypeDir:
		return "dir"
	case TypeSymlink:
		return "symlink"
	}
	return "other"
}

// ParseFileType is the inverse of [FileType.String]; unknown words are TypeOther.
func ParseFileType(s string) FileType {
	switch s {
	case "file":
		return TypeFile
	case "dir":
		return TypeDir
	case "symlink":
		return TypeSymlink
	}
	return TypeOther
}

// DirEntry is one name in a directory listing, typed with lstat semantics:
// a symlink is TypeSymlink whatever it points to.
type DirEntry struct {
	Name string
	Type FileType
}

// FS is the filesystem the core reads through (SPEC S2). Every path is an
// absolute, clean, slash-separated path; the core never asks for anything
// else and never consults a working directory.
//
// Implementations live in package fsadapter (the OS, memory, wasm host
// imports) and must pass fsadapter/fsadaptertest. A failed call returns an
// error for which [POSIXCode] gives a POSIX code such as "ENOENT"; results
// never depend on a host's own error text (SPEC S42).
//
// ReadDir may return entries in any order; the core sorts them.
// ReadFile returns a slice the caller owns.
type FS interface {
	ReadDir(path string) ([]DirEntry, error)
	Stat(path string) (FileType, error)  // follows symlinks
	Lstat(path string) (FileType, error) // does not follow the last element
	ReadFile(path string) ([]byte, error)
	Realpath(path string) (string, error) // absolute, no symlinks, no . or ..
}

// PrefixReader is an optional fast path of an [FS]: read at most n bytes of
// a file. complete reports whether the returned bytes are the whole file.
// Discovery uses it to read only the frontmatter of a SKILL.md.
type PrefixReader interface {
	FS
	ReadFilePrefix(path string, n int) (data []byte, complete bool, err error)
}

// PrefixReaderInto is an optional fast path of an [FS], preferred to
// [PrefixReader]: read the start of a file into buf, at most len(buf)
// bytes. n is the number of bytes read; complete reports whether they are
// the whole file. Errors are those of ReadFile. Discovery reads every
// SKILL.md into one reused buffer this way, so reading a thousand files
// allocates nothing.
type PrefixReaderInto interface {
	FS
	ReadFilePrefixInto(path string, buf []byte) (n int, complete bool, err error)
}

// POSIX error codes the core and the adapters use.
const (
	ENOENT  = "ENOENT"
	ENOTDIR = "ENOTDIR"
	EISDIR  = "EISDIR"
	EACCES  = "EACCES"
	ELOOP   = "ELOOP"
	EIO     = "EIO"
	EINVAL  = "EINVAL"
	EFBIG   = "EFBIG"

	ENAMETOOLONG = "ENAMETOOLONG"
	EPERM        = "EPERM"
)

// knownCode reports the codes that cross every host boundary (wasm/ABI.md's
// errno table). [POSIXCode] reports any other code as EIO, so an adapter's
// unusual code (EBUSY, say) gives the same bytes natively and in wasm (S42).
// A switch, not a package-level map: the engine module is a build-time
// snapshot, which must hold no map built at init (wasm/ABI.md#the-module).
func knownCode(code string) bool {
	switch code {
	case ENOENT, ENOTDIR, EISDIR, EACCES, ELOOP, EIO, EINVAL, EFBIG, ENAMETOOLONG, EPERM, EXDEV, ENOSYS:
		return true
	}
	return false
}

// PathError is the error an [FS] returns: the operation, the path, and a
// POSIX code. Its message is built from those three only, so it is the same
// on every host.
type PathError struct {
	Op   string // "readDir", "stat", "lstat", "readFile", "realpath"
	Path string
	Code string // "ENOENT", "EACCES", ...
}

func (e *PathError) Error() string { return e.Op + " " + e.Path + ": " + e.Code }

// POSIXCode returns the POSIX code of a filesystem failure: the Code of
// the first [*PathError] in err's chain when it is one of the codes every
// host can carry (ENOENT, ENOTDIR, EISDIR, EACCES, ELOOP, EIO, EINVAL, EFBIG,
// ENAMETOOLONG, EPERM, EXDEV, ENOSYS), "EIO" for any other error, "" for
// nil. It answers what an [FS] said; for the code of a failed operation
// (PATH_TRAVERSAL, UNKNOWN_SKILL...) use [OperationCode].
func POSIXCode(err error) string {
	if err == nil {
		return ""
	}
	if pe := findInChain[*PathError](err); pe != nil && knownCode(pe.Code) {
		return pe.Code
	}
	return EIO
}

// ErrorCode is [POSIXCode].
//
// Deprecated: the name does not say which code it is; use [POSIXCode] for
// a filesystem failure's errno, [OperationCode] for an operation's code.
func ErrorCode(err error) string { return POSIXCode(err) }

// OperationCode returns the code of a failed operation, as hosts report it
// (the Code* constants: INVALID_ARGUMENT, PATH_TRAVERSAL, UNKNOWN_SKILL...):
// the Code of the first [*Error] in err's chain, "" for nil, and
// [CodeInternal] for any other error (wire.Call reports such an error the
// same way). A filesystem failure's errno is [POSIXCode]'s answer.
func OperationCode(err error) string {
	if err == nil {
		return ""
	}
	if e := findInChain[*Error](err); e != nil {
		return e.Code
	}
	return CodeInternal
}

// findInChain is errors.As(err, &t) for a pointer type T: the first T in
// err's tree, depth first (Unwrap() error and Unwrap() []error), or the
// zero T. Written out because errors.As reaches the target through
// reflection, whose code (about 17 KB of wasm) V8 compiled for a fresh
// instance's first discovery only for this. An error's own As method is
// honoured as there.
func findInChain[T error](err error) T {
	var zero T
	for err != nil {
		if t, ok := err.(T); ok {
			return t
		}
		if x, ok := err.(interface{ As(any) bool }); ok {
			var t T
			if x.As(&t) {
				return t
			}
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				if t := findInChain[T](e); any(t) != any(zero) {
					return t
				}
			}
			return zero
		default:
			return zero
		}
	}
	return zero
}

// IsNotExist reports whether err carries ENOENT.
func IsNotExist(err error) bool { return POSIXCode(err) == ENOENT }
