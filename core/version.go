package core

// FileVersion is what a filesystem tells of a regular file's contents
// without reading them. Equal versions of a path at two moments mean the
// file held the same bytes at both, as far as the FS can tell.
type FileVersion struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64 // nanoseconds since the Unix epoch
}

// Versioner is an optional capability of an [FS]: FileVersion returns the
// version of the regular file path names, following no link at its last
// element (a link there: EINVAL; a directory: EISDIR; anything else that is
// not a regular file: EINVAL; the errors of Lstat otherwise). An FS that
// cannot vouch for a file returns ENOSYS, and its reads are then made
// again rather than trusted.
type Versioner interface {
	FS
	FileVersion(path string) (FileVersion, error)
}

// VersionedReader is an optional capability of a [ContainedReader]:
// ReadFileWithin that also gives the version of the file it opened, taken
// on the opened file (fstat(2) on its descriptor), so that the version is
// the one of the bytes read, whatever the path names before or after. A
// read that cannot tell gives the zero FileVersion.
type VersionedReader interface {
	ContainedReader
	ReadFileWithinVersion(within, path string, buf []byte) (n int, size int64, v FileVersion, err error)
}

// ReadFileWithinVersion is [VersionedReader.ReadFileWithinVersion] over
// any FS: fsys's own when it is a VersionedReader; otherwise
// [ReadFileWithin] bracketed by two versions of path ([Versioner]), the
// version when they are equal, else (or without versions) the zero one.
// Hosts of the wasm module answer read_file_within with it when the
// engine asks for the version (wasm/ABI.md#read_file_within).
func ReadFileWithinVersion(fsys FS, within, p string, buf []byte) (n int, size int64, v FileVersion, err error) {
	if vr, ok := fsys.(VersionedReader); ok {
		return vr.ReadFileWithinVersion(within, p, buf)
	}
	versioner, _ := fsys.(Versioner)
	if versioner != nil {
		if v, err = versioner.FileVersion(p); err != nil {
			v = FileVersion{}
		}
	}
	if n, size, err = ReadFileWithin(fsys, within, p, buf); err != nil {
		return 0, 0, FileVersion{}, err
	}
	if v != (FileVersion{}) {
		if after, err := versioner.FileVersion(p); err != nil || after != v {
			v = FileVersion{}
		}
	}
	return n, size, v, nil
}

// ENOSYS is the code of a [Versioner] that cannot give a file's version.
const ENOSYS = "ENOSYS"
