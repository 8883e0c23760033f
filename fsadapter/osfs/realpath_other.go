//go:build !linux

package osfs

// realpath resolves the absolute host path h.
func realpath(h string) (string, error) { return evalSymlinks(h) }
