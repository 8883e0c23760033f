//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package osfs

import (
	"io/fs"
	"syscall"

	"github.com/skilldex/skilldex/core"
)

// statVersion is the version of a file whose stat is fi: its device,
// inode, size and modification and change times (the change time is the
// one no caller can set back, core.Versioner).
func statVersion(fi fs.FileInfo) (core.FileVersion, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return core.FileVersion{}, false
	}
	mtime, ctime := statTimes(st)
	return core.FileVersion{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Mtime: mtime, Ctime: ctime}, true
}
