package fsadaptertest

// Builder creates a tree. Paths are absolute slash paths in the tree being
// built; every method creates missing parent directories. *memfs.FS is a
// Builder, and [OSBuilder] writes to a host directory.
type Builder interface {
	Mkdir(path string) error                  // like mkdir -p
	WriteFile(path string, data []byte) error // create or replace a regular file
	Symlink(target, path string) error        // target is stored as given
}
