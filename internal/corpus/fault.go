package corpus

import "github.com/skilldex/skilldex/core"

// WithFaults returns fsys with faults injected: an operation named by a
// fault fails on exactly the fault's path (no prefix matching, no symlink
// resolution) with a [*core.PathError] carrying the fault's code; every
// other call goes to fsys. A readFile fault also fails ReadFilePrefix.
//
// The result implements [core.PrefixReader] exactly when fsys does, so the
// engine takes the same code path with and without faults. With no faults,
// fsys itself is returned.
func WithFaults(fsys core.FS, faults []Fault) core.FS {
	if len(faults) == 0 {
		return fsys
	}
	f := &faultFS{fsys: fsys, faults: map[faultKey]string{}}
	for _, ft := range faults {
		f.faults[faultKey{ft.Op, ft.Path}] = ft.Code
	}
	if pr, ok := fsys.(core.PrefixReader); ok {
		return &faultPrefixFS{faultFS: f, pr: pr}
	}
	return f
}

type faultKey struct{ op, path string }

type faultFS struct {
	fsys   core.FS
	faults map[faultKey]string
}

// fail returns the injected error for op on p, or nil.
func (f *faultFS) fail(op, p string) error {
	if code, ok := f.faults[faultKey{op, p}]; ok {
		return &core.PathError{Op: op, Path: p, Code: code}
	}
	return nil
}

func (f *faultFS) ReadDir(p string) ([]core.DirEntry, error) {
	if err := f.fail("readDir", p); err != nil {
		return nil, err
	}
	return f.fsys.ReadDir(p)
}

func (f *faultFS) Stat(p string) (core.FileType, error) {
	if err := f.fail("stat", p); err != nil {
		return core.TypeOther, err
	}
	return f.fsys.Stat(p)
}

func (f *faultFS) Lstat(p string) (core.FileType, error) {
	if err := f.fail("lstat", p); err != nil {
		return core.TypeOther, err
	}
	return f.fsys.Lstat(p)
}

func (f *faultFS) ReadFile(p string) ([]byte, error) {
	if err := f.fail("readFile", p); err != nil {
		return nil, err
	}
	return f.fsys.ReadFile(p)
}

func (f *faultFS) Realpath(p string) (string, error) {
	if err := f.fail("realpath", p); err != nil {
		return "", err
	}
	return f.fsys.Realpath(p)
}

type faultPrefixFS struct {
	*faultFS
	pr core.PrefixReader
}

func (f *faultPrefixFS) ReadFilePrefix(p string, n int) ([]byte, bool, error) {
	if err := f.fail("readFile", p); err != nil {
		return nil, false, err
	}
	return f.pr.ReadFilePrefix(p, n)
}
