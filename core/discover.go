package core

// Discover loads the skills of SPEC sections 3 to 5 for one load context.
func Discover(fsys FS, cwd, home string, opts Options) (*Result, error) {
	panic("TODO")
}

// ScanDir scans one skills directory (SPEC S28).
func ScanDir(fsys FS, dir, source string) (*ScanResult, error) {
	panic("TODO")
}
