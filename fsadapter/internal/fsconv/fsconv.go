// Package fsconv turns what the OS and an io/fs.FS answer into what a
// [core.FS] answers: an error into its POSIX code, a file mode into a
// [core.FileType]. The adapters that stand on them share it (osfs, iofs).
package fsconv

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"

	"github.com/skilldex/skilldex/core"
)

// names are the errno values Code names. Others become EIO.
var names = map[syscall.Errno]string{
	syscall.ENOENT:       core.ENOENT,
	syscall.ENOTDIR:      core.ENOTDIR,
	syscall.EISDIR:       core.EISDIR,
	syscall.EACCES:       core.EACCES,
	syscall.EPERM:        "EPERM",
	syscall.ELOOP:        core.ELOOP,
	syscall.EIO:          core.EIO,
	syscall.EINVAL:       core.EINVAL,
	syscall.EFBIG:        core.EFBIG,
	syscall.ENAMETOOLONG: "ENAMETOOLONG",
	syscall.EMFILE:       "EMFILE",
	syscall.ENFILE:       "ENFILE",
	syscall.ENOMEM:       "ENOMEM",
	syscall.EBUSY:        "EBUSY",
	syscall.EEXIST:       "EEXIST",
	syscall.EXDEV:        core.EXDEV,
}

// Code returns the POSIX name of err: the name of its syscall.Errno when
// it has one ("ENOENT", "EACCES", ...), "ELOOP" for filepath.EvalSymlinks'
// "too many links", "ENOENT", "EACCES" or "EINVAL" for errors that only
// say fs.ErrNotExist, fs.ErrPermission or fs.ErrInvalid, else "EIO"; ""
// for nil.
func Code(err error) string {
	if err == nil {
		return ""
	}
	var e syscall.Errno
	if errors.As(err, &e) {
		if name, ok := names[e]; ok {
			return name
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return core.ENOENT
	case errors.Is(err, fs.ErrPermission):
		return core.EACCES
	case errors.Is(err, fs.ErrInvalid):
		return core.EINVAL
	case strings.Contains(err.Error(), "too many links"):
		// filepath.EvalSymlinks reports a loop with errors.New.
		return core.ELOOP
	}
	return core.EIO
}

// FileType maps an fs.FileMode's type bits to a core.FileType.
func FileType(m fs.FileMode) core.FileType {
	switch {
	case m&fs.ModeSymlink != 0:
		return core.TypeSymlink
	case m.IsDir():
		return core.TypeDir
	case m.IsRegular():
		return core.TypeFile
	}
	return core.TypeOther
}
