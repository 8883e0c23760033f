//go:build !linux

package osfs

import (
	"os"

	"github.com/skilldex/skilldex/core"
)

// realpath resolves the absolute host path h.
func realpath(h string) (string, error) { return evalSymlinks(h) }

// openedName cannot name an open file here: ReadFileWithin compares the
// file's identity with its realpath's instead.
func openedName(*os.File) (string, bool) { return "", false }

// readWithin has no fast path here: ReadFileWithin takes the portable one.
func (f *FS) readWithin(h, within, p string, buf []byte) (int, int64, core.FileVersion, bool, error) {
	return 0, 0, core.FileVersion{}, false, nil
}
