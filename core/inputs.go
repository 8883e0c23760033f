package core

import (
	"bytes"
	"time"
)

// Reusing a discovery whose inputs have not changed (issue 13).
//
// A discovery is a function of its request and of what its FS answered: the
// same answers to the same calls give the same result, byte for byte. So a
// host that discovers again and again (an editor, a long-lived agent) can
// keep the last discovery's calls and answers ([Inputs], made by
// [RecordInputs]) and, on the next identical request, ask them again
// ([Inputs.Unchanged]); when every answer is the same, the last result
// stands, and no SKILL.md is read or parsed again.
//
// Asking again is cheap for everything but the reads: a listing, a stat
// or a realpath is made again as it was. A read is replaced by the file's
// [FileVersion] (one stat), which an FS that can vouch for it gives
// ([Versioner]): the device, inode, size and modification and change times
// of the file the path names now. A read is taken as repeatable that way
// only when its file had the same version just before it and just after it
// (so the bytes read are that version's), and when the file's change time
// lay racyMargin before the discovery began: a file changed twice within
// one tick of its filesystem's clock (a second on some), the same size
// both times, keeps its version, so a file that recent is read again, its
// bytes compared, until it is old enough. Every other read is made again
// and compared byte for byte.
//
// What this trusts: that a file whose version is unchanged holds the bytes
// it held. The kernel sets the change time on every write, truncate,
// link, unlink and rename of the file, and no caller can set it back.
// What a replaced read never does is yield new bytes: it stands for bytes
// read earlier under SPEC S44's check, so nothing outside a skill can
// reach a result this way. (Between the two versions of a recorded read,
// a path swapped to another checked file and back within microseconds
// would leave the other file's bytes standing until the path's file
// changes; it needs two swaps in that window, and what stands was read
// inside the same boundary.)

// FileVersion is what a filesystem tells of a regular file's contents
// without reading them. Equal versions of a path at two moments mean the
// file held the same bytes at both, as far as the FS can tell.
type FileVersion struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64 // nanoseconds since the Unix epoch
}

// Versioner is an optional capability of an [FS]: FileVersion returns the
// version of the regular file path names, following links (a directory:
// EISDIR; anything else that is not a regular file: EINVAL; the errors of
// Stat otherwise). An FS that cannot vouch for a file returns ENOSYS, and
// its reads are then made again rather than trusted.
type Versioner interface {
	FileVersion(path string) (FileVersion, error)
}

// ENOSYS is the code of a [Versioner] that cannot give a file's version.
const ENOSYS = "ENOSYS"

// racyMargin is how long before a discovery a file must have last changed
// for its version to stand for its bytes: longer than the coarsest clock
// of a common filesystem (FAT's two seconds) and than the tick of Linux's
// file times (a few milliseconds).
const racyMargin = int64(3 * time.Second)

// maxKeptBytes bounds the bytes a record keeps of reads it cannot replace
// with a version; past it the record cannot be asked again
// ([Inputs.Unchanged] reports false) and the next discovery runs in full.
const maxKeptBytes = 1 << 20

type inputKind uint8

const (
	askReadDir inputKind = iota + 1
	askStat
	askLstat
	askRealpath
	askReadFile   // FS.ReadFile
	askReadPrefix // PrefixReaderInto, PrefixReader
	askReadWithin // ContainedReader
)

// input is one call a discovery made and its answer.
type input struct {
	kind     inputKind
	path     string
	within   string // askReadWithin
	n        int    // the buffer or prefix asked for (reads)
	code     string // the error's code, "" for none
	typ      FileType
	text     string     // Realpath's answer
	entries  []DirEntry // ReadDir's answer, in the FS's order
	data     []byte     // the bytes read, kept when version is not
	got      int        // bytes read (ReadFileWithin, prefixes)
	size     int64      // ReadFileWithin's size
	complete bool       // prefixes
	versions bool       // version stands for data
	version  FileVersion
}

// Inputs is what one discovery asked its FS, in order, and what it was
// answered ([RecordInputs]).
type Inputs struct {
	list  []input
	kept  int  // bytes of data kept
	whole bool // every answer could be kept
}

// RecordInputs returns fsys wrapped to record every call made through it
// into the returned [Inputs], and the Inputs. now is the time the
// discovery begins (nanoseconds since the Unix epoch). The wrapper is an
// [FS], a [ContainedReader] when fsys is one, and a [PrefixReaderInto]; it
// is no [Prefetcher], so every read is made when the discovery makes it,
// between its two versions.
func RecordInputs(fsys FS, now int64) (FS, *Inputs) {
	in := &Inputs{whole: true}
	r := &recorder{fsys: fsys, in: in, now: now}
	r.versioner, _ = fsys.(Versioner)
	if cr, ok := fsys.(ContainedReader); ok {
		return &containedRecorder{recorder: r, cr: cr}, in
	}
	return r, in
}

type recorder struct {
	fsys      FS
	versioner Versioner
	in        *Inputs
	now       int64
}

func (r *recorder) add(x input) { r.in.list = append(r.in.list, x) }

func (r *recorder) ReadDir(p string) ([]DirEntry, error) {
	entries, err := r.fsys.ReadDir(p)
	r.add(input{kind: askReadDir, path: p, code: ErrorCode(err), entries: append([]DirEntry(nil), entries...)})
	return entries, err
}

func (r *recorder) Stat(p string) (FileType, error) {
	t, err := r.fsys.Stat(p)
	r.add(input{kind: askStat, path: p, code: ErrorCode(err), typ: t})
	return t, err
}

func (r *recorder) Lstat(p string) (FileType, error) {
	t, err := r.fsys.Lstat(p)
	r.add(input{kind: askLstat, path: p, code: ErrorCode(err), typ: t})
	return t, err
}

func (r *recorder) Realpath(p string) (string, error) {
	s, err := r.fsys.Realpath(p)
	r.add(input{kind: askRealpath, path: p, code: ErrorCode(err), text: s})
	return s, err
}

func (r *recorder) ReadFile(p string) ([]byte, error) {
	v, ok := r.versionBefore(p)
	data, err := r.fsys.ReadFile(p)
	x := input{kind: askReadFile, path: p, code: ErrorCode(err), got: len(data)}
	r.keep(&x, data, err, v, ok)
	return data, err
}

func (r *recorder) ReadFilePrefixInto(p string, buf []byte) (int, bool, error) {
	v, ok := r.versionBefore(p)
	var n int
	var complete bool
	var err error
	var data []byte
	if pri, is := r.fsys.(PrefixReaderInto); is {
		if n, complete, err = pri.ReadFilePrefixInto(p, buf); err == nil && n >= 0 && n <= len(buf) {
			data = buf[:n]
		}
	} else {
		if pr, is := r.fsys.(PrefixReader); is {
			data, complete, err = pr.ReadFilePrefix(p, len(buf))
		} else if data, err = r.fsys.ReadFile(p); err == nil {
			complete = len(data) <= len(buf)
		}
		n = copy(buf, data)
		data = buf[:n]
	}
	x := input{kind: askReadPrefix, path: p, n: len(buf), code: ErrorCode(err), got: n, complete: complete}
	r.keep(&x, data, err, v, ok)
	return n, complete, err
}

// containedRecorder is the recorder of a [ContainedReader].
type containedRecorder struct {
	*recorder
	cr ContainedReader
}

func (r *containedRecorder) ReadFileWithin(within, p string, buf []byte) (int, int64, error) {
	v, ok := r.versionBefore(p)
	n, size, err := r.cr.ReadFileWithin(within, p, buf)
	x := input{kind: askReadWithin, path: p, within: within, n: len(buf), code: ErrorCode(err), got: n, size: size}
	var data []byte
	if err == nil && n >= 0 && n <= len(buf) {
		data = buf[:n]
	}
	r.keep(&x, data, err, v, ok)
	return n, size, err
}

// versionBefore is the version of p before a read, when it is old enough
// to stand for the bytes (racyMargin).
func (r *recorder) versionBefore(p string) (FileVersion, bool) {
	if r.versioner == nil {
		return FileVersion{}, false
	}
	v, err := r.versioner.FileVersion(p)
	if ErrorCode(err) == ENOSYS {
		r.versioner = nil // it has no versions to give: ask no more
	}
	return v, err == nil && v.Ctime <= r.now-racyMargin
}

// keep completes x, the record of a read that gave data and err, and adds
// it: a read whose file had version before (ok) and has it still is
// replaced by that version, and any other keeps its bytes.
func (r *recorder) keep(x *input, data []byte, err error, before FileVersion, ok bool) {
	if err == nil && ok {
		if after, aerr := r.versioner.FileVersion(x.path); aerr == nil && after == before {
			x.versions, x.version = true, before
		}
	}
	if err == nil && !x.versions {
		if r.in.kept += len(data); r.in.kept > maxKeptBytes {
			r.in.whole = false
		} else {
			x.data = append([]byte(nil), data...)
		}
	}
	r.add(*x)
}

// Unchanged reports whether fsys answers every call of the record as it
// was answered: then a discovery of the same request through fsys now
// would give the recorded discovery's result. It stops at the first
// difference.
func (in *Inputs) Unchanged(fsys FS) bool {
	if in == nil || !in.whole {
		return false
	}
	versioner, _ := fsys.(Versioner)
	var buf []byte
	for i := range in.list {
		x := &in.list[i]
		switch x.kind {
		case askReadDir:
			entries, err := fsys.ReadDir(x.path)
			if ErrorCode(err) != x.code || !sameEntries(entries, x.entries) {
				return false
			}
		case askStat, askLstat:
			stat := fsys.Stat
			if x.kind == askLstat {
				stat = fsys.Lstat
			}
			t, err := stat(x.path)
			if code := ErrorCode(err); code != x.code || code == "" && t != x.typ {
				return false
			}
		case askRealpath:
			s, err := fsys.Realpath(x.path)
			if code := ErrorCode(err); code != x.code || code == "" && s != x.text {
				return false
			}
		default:
			if !x.versions && versioner != nil && (x.code == ENOENT || x.code == ENOTDIR) {
				// A read that found no file: so does a stat, for less.
				if _, err := versioner.FileVersion(x.path); ErrorCode(err) != x.code {
					return false
				}
				continue
			}
			if x.versions {
				if versioner == nil {
					return false
				}
				if v, err := versioner.FileVersion(x.path); err != nil || v != x.version {
					return false
				}
				continue
			}
			if cap(buf) < x.n {
				buf = make([]byte, x.n)
			}
			if !x.readAgain(fsys, buf[:x.n]) {
				return false
			}
		}
	}
	return true
}

// readAgain makes x's read again and reports whether it gave the same
// answer.
func (x *input) readAgain(fsys FS, buf []byte) bool {
	var n int
	var err error
	var data []byte
	switch x.kind {
	case askReadFile:
		data, err = fsys.ReadFile(x.path)
		n = len(data)
	case askReadPrefix:
		var complete bool
		n, complete, err = readPrefixInto(fsys, x.path, buf)
		if err == nil && complete != x.complete {
			return false
		}
		data = buf[:max(0, min(n, len(buf)))]
	case askReadWithin:
		cr, ok := fsys.(ContainedReader)
		if !ok {
			return false
		}
		var size int64
		n, size, err = cr.ReadFileWithin(x.within, x.path, buf)
		if err == nil && size != x.size {
			return false
		}
		data = buf[:max(0, min(n, len(buf)))]
	}
	if code := ErrorCode(err); code != x.code {
		return false
	}
	return err != nil || n == x.got && bytes.Equal(data, x.data)
}

// readPrefixInto reads the start of p into buf as the recorder's
// ReadFilePrefixInto does.
func readPrefixInto(fsys FS, p string, buf []byte) (int, bool, error) {
	if pri, ok := fsys.(PrefixReaderInto); ok {
		return pri.ReadFilePrefixInto(p, buf)
	}
	var data []byte
	var complete bool
	var err error
	if pr, ok := fsys.(PrefixReader); ok {
		data, complete, err = pr.ReadFilePrefix(p, len(buf))
	} else if data, err = fsys.ReadFile(p); err == nil {
		complete = len(data) <= len(buf)
	}
	return copy(buf, data), complete, err
}

func sameEntries(a, b []DirEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
