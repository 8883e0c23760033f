package osfs

import (
	"strconv"
	"strings"
	"syscall"

	"github.com/skilldex/skilldex/core"
	"golang.org/x/sys/unix"
)

// readWithin is ReadFileWithin on Linux, where /proc names a descriptor.
// It works on the raw descriptor rather than an *os.File: opening an
// os.File registers it with the runtime's poller (an epoll_ctl that fails
// for every regular file) and allocates, and discovery does this once a
// SKILL.md. The calls are open, fstat (the regular-file check, whose size
// also ends the read, and the version of the bytes read), readlink of /proc/self/fd/N (the S44 check on the
// file actually opened), read and close. handled is false when /proc
// cannot name the descriptor; ReadFileWithin then takes the portable path.
func (f *FS) readWithin(h, within, p string, buf []byte) (n int, size int64, v core.FileVersion, handled bool, err error) {
	if !procOK || f.portable {
		return 0, 0, v, false, nil
	}
	fd, err := retry(func() (int, error) { return unix.Open(h, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0) })
	if err != nil {
		return 0, 0, v, true, wrap("readFile", p, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, 0, v, true, wrap("readFile", p, err)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		return 0, 0, v, true, &core.PathError{Op: "readFile", Path: p, Code: core.EISDIR}
	default: // a FIFO would block a read, /dev/zero never end
		return 0, 0, v, true, &core.PathError{Op: "readFile", Path: p, Code: core.EINVAL}
	}
	// The version of the bytes about to be read: any change after this
	// fstat moves the change time (core.VersionedReader).
	v = core.FileVersion{Dev: uint64(st.Dev), Ino: st.Ino, Size: st.Size,
		Mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec, Ctime: st.Ctim.Sec*1e9 + st.Ctim.Nsec}
	var link [4096]byte
	m, err := unix.Readlink("/proc/self/fd/"+strconv.Itoa(fd), link[:])
	name := string(link[:max(m, 0)])
	if err != nil || m == len(link) || !strings.HasPrefix(name, "/") || strings.HasSuffix(name, " (deleted)") {
		return 0, 0, core.FileVersion{}, false, nil
	}
	if virtual, ok := f.virtual(name); !ok || !pathWithin(virtual, within) {
		return 0, 0, core.FileVersion{}, true, &core.PathError{Op: "readFile", Path: p, Code: core.EXDEV}
	}
	// A regular file's size says when the read is done, saving the read
	// that would return EOF. A file of size 0 may still have bytes (/proc
	// files have no size): read it to EOF.
	size = st.Size
	got := 0
	for got < len(buf) && (size == 0 || int64(got) < size) {
		m, err := retry(func() (int, error) { return unix.Read(fd, buf[got:]) })
		if err != nil {
			return 0, 0, v, true, wrap("readFile", p, err)
		}
		if m == 0 {
			return got, int64(got), v, true, nil
		}
		got += m
	}
	if got < len(buf) {
		return got, int64(got), v, true, nil
	}
	if size <= int64(got) {
		// A few more bytes prove the file is longer (8: /proc files such
		// as pagemap refuse smaller reads, and an error counts as more).
		var probe [8]byte
		if m, err := unix.Read(fd, probe[:]); m > 0 || err != nil {
			size = int64(got) + 1
		} else {
			size = int64(got)
		}
	}
	return got, size, v, true, nil
}

// retry calls op again while it is interrupted by a signal.
func retry(op func() (int, error)) (int, error) {
	for {
		n, err := op()
		if err != syscall.EINTR {
			return n, err
		}
	}
}
