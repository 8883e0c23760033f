//go:build !unix

package osfs

import "os"

const openFlags = os.O_RDONLY
