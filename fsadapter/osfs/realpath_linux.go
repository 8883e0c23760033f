package osfs

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// procOK reports whether /proc/self/fd can name an O_PATH descriptor; it is
// checked once.
var procOK = func() bool {
	_, err := os.Readlink("/proc/self/fd/0")
	if err == nil {
		return true
	}
	_, err = os.Stat("/proc/self/fd")
	return err == nil
}()

// realpath resolves the absolute host path h. It opens h with O_PATH (which
// follows every symlink with the kernel's rules and needs no permission on
// the file itself) and asks /proc for the descriptor's name.
func realpath(h string) (string, error) {
	if !procOK {
		return evalSymlinks(h)
	}
	var fd int
	var err error
	for {
		fd, err = unix.Open(h, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return "", &os.PathError{Op: "open", Path: h, Err: err}
	}
	defer syscall.Close(fd)
	name, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return evalSymlinks(h)
	}
	if !strings.HasPrefix(name, "/") {
		// Not a path (e.g. outside this mount namespace): ask the slow way.
		return evalSymlinks(h)
	}
	return name, nil
}

// openedName returns the kernel's name for the open file f (its path as
// the kernel resolved it when f was opened, whatever happened to the path
// since), or ok == false when /proc cannot tell.
func openedName(f *os.File) (name string, ok bool) {
	if !procOK {
		return "", false
	}
	name, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil || !strings.HasPrefix(name, "/") || strings.HasSuffix(name, " (deleted)") {
		return "", false
	}
	return name, true
}
