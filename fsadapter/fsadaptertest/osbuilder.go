package fsadaptertest

import (
	"os"
	"path/filepath"
	"strings"
)

// OSBuilder returns a [Builder] that writes under the host directory dir,
// which must exist: the virtual path "/a/b" is dir+"/a/b", and an absolute
// symlink target "/x" is written as dir+"/x", so that [osfs.Dir](dir) sees
// the same tree as a memfs built with the same calls.
//
// [osfs.Dir]: https://pkg.go.dev/github.com/skilldex/skilldex/fsadapter/osfs#Dir
func OSBuilder(dir string) Builder { return osBuilder(dir) }

type osBuilder string

func (b osBuilder) host(p string) string {
	return filepath.Join(string(b), filepath.FromSlash(p))
}

func (b osBuilder) Mkdir(p string) error { return os.MkdirAll(b.host(p), 0o755) }

func (b osBuilder) WriteFile(p string, data []byte) error {
	h := b.host(p)
	if err := os.MkdirAll(filepath.Dir(h), 0o755); err != nil {
		return err
	}
	return os.WriteFile(h, data, 0o644)
}

func (b osBuilder) Symlink(target, p string) error {
	h := b.host(p)
	if err := os.MkdirAll(filepath.Dir(h), 0o755); err != nil {
		return err
	}
	if strings.HasPrefix(target, "/") {
		target = string(b) + filepath.FromSlash(target)
	} else {
		target = filepath.FromSlash(target)
	}
	return os.Symlink(target, h)
}
