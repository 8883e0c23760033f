//go:build unix

package osfs

import (
	"os"
	"syscall"
)

// openFlags opens files for reading without blocking: a FIFO swapped in
// for a SKILL.md must not hang the host in open(2). The file's type is
// checked right after.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
