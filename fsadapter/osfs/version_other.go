//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package osfs

import (
	"io/fs"

	"github.com/skilldex/skilldex/core"
)

// statVersion: no version on this system (its stat is not read for one).
func statVersion(fs.FileInfo) (core.FileVersion, bool) { return core.FileVersion{}, false }
