// Package errno names the POSIX code of an error from the OS or from an
// io/fs.FS, for the adapters that turn such errors into [core.PathError]s
// (osfs, iofs).
package errno

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
