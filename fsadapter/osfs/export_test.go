package osfs

// Portable returns a copy of f whose Realpath takes the portable path
// (os.Stat + filepath.EvalSymlinks) even on Linux.
func Portable(f *FS) *FS {
	g := *f
	g.portable = true
	return &g
}
