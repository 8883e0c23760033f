// Package record keeps what a discovery asked its filesystem and what it was
// answered, and tells whether the same calls answer the same now: reusing a
// discovery whose inputs have not changed (SPEC S42, S61). wire.Session is
// its user.
//
// A discovery is a function of its request and of what its core.FS answered: the
// same answers to the same calls give the same result, byte for byte. So a
// host that discovers again and again (an editor, a long-lived agent) can
// keep the last discovery's calls and answers ([Inputs], made by
// [New]) and, on the next identical request, ask them again
// ([Inputs.Unchanged]); when every answer is the same, the last result
// stands, and no SKILL.md is read or parsed again.
//
// Asking again is cheap for everything but the reads: a listing, a stat
// or a realpath is made again as it was. A read is replaced by a
// [core.FileVersion] (device, inode, size, modification and change times) when
// one is known to stand for the bytes read:
//   - a checked read ([core.ContainedReader]) of a core.FS that is a
//     [core.VersionedReader] gives the version of the file it opened, taken on
//     the opened file itself: the bytes read are that file's, whatever the
//     path named before or after;
//   - any other read is bracketed: the path's version just before and just
//     after the read, when the two are equal.
//
// In both cases the file's change time must lie racyMargin before the
// discovery began: a file changed twice within one tick of its
// filesystem's clock (a second on some), the same size both times, keeps
// its version, so a file that recent is read again, its bytes compared,
// until it is old enough. Every other read is made again and compared byte
// for byte.
//
// The check that replaces a read ([core.Versioner]) follows no link at the end
// of the path, as the checked read it stands for allowed none there: a
// SKILL.md replaced by a link to the same file moved elsewhere has another
// answer (a link is not a regular file), and the discovery is made again.
// The folders above it are the record's own listings and realpaths.
//
// What this trusts: that a file whose version is unchanged holds the bytes
// it held. The kernel sets the change time on every write, truncate,
// link, unlink and rename of the file, and no caller can set it back.
// What a replaced read never does is yield new bytes: it stands for bytes
// read earlier under SPEC S44's check, so nothing outside a skill can
// reach a result this way.
package record

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/skilldex/skilldex/core"
)

// racyMargin is how long before a discovery a file must have last changed
// for its version to stand for its bytes: longer than the coarsest clock
// of a common filesystem (FAT's two seconds) and than the tick of Linux's
// file times (a few milliseconds).
const racyMargin = int64(3 * time.Second)

// maxKeptBytes bounds the bytes a record keeps of reads it cannot replace
// with a version; past it the record is dropped ([Inputs.Unchanged]
// reports false) and the next discovery runs in full.
const maxKeptBytes = 256 << 10

type inputKind uint8

const (
	askReadDir inputKind = iota + 1
	askStat
	askLstat
	askRealpath
	askReadFile   // core.FS.ReadFile
	askReadPrefix // core.PrefixReaderInto, core.PrefixReader
	askReadWithin // core.ContainedReader
)

// Inputs is what one discovery asked its core.FS, in order, and what it was
// answered ([New]). The calls are kept as bytes, not values: a
// discovery of 10,000 skills makes about as many calls, and a slice of
// records with a string or two each took twice the memory and kept the
// collector busy (the engine module's bound on linear memory). Each call is
//
//	kind byte, path, code, then by kind:
//	  ReadDir:  count uvarint, and count times: type byte, name
//	  Stat, Lstat: type byte
//	  Realpath: the realpath
//	  reads:    within (core.ReadFileWithin only; empty when it is path), buffer
//	            size uvarint, bytes read uvarint, size varint, complete
//	            byte, and either 1 and the version (five uvarints) or 0 and
//	            the bytes read
//
// where a string is its length (uvarint) and its bytes, a path is the
// length of the prefix it shares with the last call's path (uvarint) and
// the rest as a string, and code is the error's code, empty for none. The
// calls fill chunks of chunkSize bytes (one call never spans two), so a
// record grows without copying itself.
type Inputs struct {
	chunks [][]byte
	kept   int  // bytes of reads kept
	whole  bool // every answer could be kept
	// retryAt is when a record that could not be kept may succeed: once
	// the recent files it met are racyMargin old (never, for a core.FS with
	// no versions or a broken one).
	retryAt int64
}

// Whole reports whether the record holds every call: [Inputs.Unchanged]
// can then answer. One that does not tells, with RetryAt, when to record
// again: a discovery that cannot be kept is not worth recording.
func (in *Inputs) Whole() bool { return in.whole }

// RetryAt is when a record that is not [Inputs.Whole] could be (nanoseconds
// since the Unix epoch, as New's now).
func (in *Inputs) RetryAt() int64 { return in.retryAt }

// chunkSize is the size of a record's chunks: a 1,000-skill discovery's
// record takes about 170 KB.
const chunkSize = 64 << 10

// add appends one call's bytes.
func (in *Inputs) add(rec []byte) {
	n := len(in.chunks)
	if n == 0 || cap(in.chunks[n-1])-len(in.chunks[n-1]) < len(rec) {
		in.chunks = append(in.chunks, make([]byte, 0, max(chunkSize, len(rec))))
		n++
	}
	in.chunks[n-1] = append(in.chunks[n-1], rec...)
}

// New returns fsys wrapped to record every call made through it
// into the returned [Inputs], and the Inputs. now is the time the
// discovery begins (nanoseconds since the Unix epoch). The wrapper is an
// [core.FS], a [core.ContainedReader] when fsys is one, and a [core.PrefixReaderInto];
// a [core.Prefetcher] when fsys is a [core.VersionedReader] and a core.Prefetcher: its
// checked reads then give the version of the file they opened, whoever
// read it and whenever, so they may be made ahead.
func New(fsys core.FS, now int64) (core.FS, *Inputs) {
	in := &Inputs{whole: true}
	r := &recorder{fsys: fsys, in: in, now: now}
	r.versioner, _ = fsys.(core.Versioner)
	if cr, ok := fsys.(core.ContainedReader); ok {
		r.vr, _ = fsys.(core.VersionedReader)
		c := &containedRecorder{recorder: r, cr: cr}
		if pf, ok := fsys.(core.Prefetcher); ok && r.vr != nil {
			return &prefetchingRecorder{c, pf}, in
		}
		return c, in
	}
	return r, in
}

// prefetchingRecorder is the recorder of a [core.VersionedReader] and
// [core.Prefetcher]: its hints go through.
type prefetchingRecorder struct {
	*containedRecorder
	pf core.Prefetcher
}

func (r *prefetchingRecorder) PrefetchWithin(paths []byte, cap int) { r.pf.PrefetchWithin(paths, cap) }

type recorder struct {
	fsys      core.FS
	versioner core.Versioner
	vr        core.VersionedReader // fsys, when it is one
	in        *Inputs
	now       int64
	rec       []byte // the call being recorded
	lastPath  string // the last call's path
}

// call starts the record of a call in r.rec; end adds it.
func (r *recorder) call(kind inputKind, p string, err error) {
	if !r.in.whole {
		return
	}
	common := 0
	for common < len(p) && common < len(r.lastPath) && p[common] == r.lastPath[common] {
		common++
	}
	r.lastPath = p
	r.rec = append(r.rec[:0], byte(kind))
	r.rec = binary.AppendUvarint(r.rec, uint64(common))
	r.rec = appendString(r.rec, p[common:])
	r.rec = appendString(r.rec, core.POSIXCode(err))
}

func (r *recorder) end() { r.in.add(r.rec) }

func (r *recorder) ReadDir(p string) ([]core.DirEntry, error) {
	entries, err := r.fsys.ReadDir(p)
	if r.call(askReadDir, p, err); r.in.whole {
		r.rec = appendEntries(r.rec, entries)
		r.end()
	}
	return entries, err
}

func (r *recorder) Stat(p string) (core.FileType, error) {
	t, err := r.fsys.Stat(p)
	return r.fileType(askStat, p, t, err)
}

func (r *recorder) Lstat(p string) (core.FileType, error) {
	t, err := r.fsys.Lstat(p)
	return r.fileType(askLstat, p, t, err)
}

// fileType records a Stat's or Lstat's answer, and returns it.
func (r *recorder) fileType(kind inputKind, p string, t core.FileType, err error) (core.FileType, error) {
	if r.call(kind, p, err); r.in.whole {
		r.rec = append(r.rec, byte(t))
		r.end()
	}
	return t, err
}

func (r *recorder) Realpath(p string) (string, error) {
	s, err := r.fsys.Realpath(p)
	if r.call(askRealpath, p, err); r.in.whole {
		r.rec = appendString(r.rec, s)
		r.end()
	}
	return s, err
}

func (r *recorder) ReadFile(p string) ([]byte, error) {
	before := r.version(p)
	data, err := r.fsys.ReadFile(p)
	r.call(askReadFile, p, err)
	r.read(askReadFile, p, "", read{n: 0, got: len(data)}, data, err, r.bracket(p, before))
	return data, err
}

func (r *recorder) ReadFilePrefixInto(p string, buf []byte) (int, bool, error) {
	before := r.version(p)
	n, complete, err := readPrefixInto(r.fsys, p, buf)
	var data []byte
	if err == nil && n >= 0 && n <= len(buf) {
		data = buf[:n]
	}
	r.call(askReadPrefix, p, err)
	r.read(askReadPrefix, p, "", read{n: len(buf), got: n, complete: complete}, data, err, r.bracket(p, before))
	return n, complete, err
}

// containedRecorder is the recorder of a [core.ContainedReader].
type containedRecorder struct {
	*recorder
	cr core.ContainedReader
}

func (r *containedRecorder) ReadFileWithin(within, p string, buf []byte) (int, int64, error) {
	var n int
	var size int64
	var err error
	var v core.FileVersion
	if r.vr != nil && r.in.whole {
		n, size, v, err = r.vr.ReadFileWithinVersion(within, p, buf)
	} else {
		before := r.version(p)
		n, size, err = r.cr.ReadFileWithin(within, p, buf)
		v = r.bracket(p, before)
	}
	var data []byte
	if err == nil && n >= 0 && n <= len(buf) {
		data = buf[:n]
	}
	r.call(askReadWithin, p, err)
	if within == p {
		within = ""
	}
	r.read(askReadWithin, p, within, read{n: len(buf), got: n, size: size}, data, err, v)
	return n, size, err
}

// read is what a read was asked and answered besides its bytes.
type read struct {
	n, got   int // the buffer's size, the bytes read
	size     int64
	complete bool
}

// version is the version of p now, or the zero version when it has none
// (or the record is no longer kept).
func (r *recorder) version(p string) core.FileVersion {
	if r.versioner == nil || !r.in.whole {
		return core.FileVersion{}
	}
	v, err := r.versioner.FileVersion(p)
	if core.POSIXCode(err) == core.ENOSYS {
		r.versioner = nil // it has no versions to give: ask no more
	}
	if err != nil {
		return core.FileVersion{}
	}
	return v
}

// bracket is the version that stands for a read of p made after the
// version before was taken: the version after it, when the two are equal.
func (r *recorder) bracket(p string, before core.FileVersion) core.FileVersion {
	if before == (core.FileVersion{}) {
		return before
	}
	if after := r.version(p); after != before {
		return core.FileVersion{}
	}
	return before
}

// read ends the record of a read of p that gave data and err. It is
// replaced by v, the version of the file it read (or zero), when v stands
// for the bytes: the file's change time lies racyMargin before the
// discovery began. Any other read keeps its bytes (and the record is
// dropped once maxKeptBytes are kept).
func (r *recorder) read(kind inputKind, p, within string, x read, data []byte, err error, v core.FileVersion) {
	if !r.in.whole {
		return
	}
	b := r.rec
	if x.n >= 0 && x.got >= 0 {
		b = appendString(b, within)
		b = binary.AppendUvarint(b, uint64(x.n))
		b = binary.AppendUvarint(b, uint64(x.got))
		b = binary.AppendVarint(b, x.size)
		b = append(b, boolByte(x.complete))
	} else {
		r.in.whole, r.in.chunks, r.in.retryAt = false, nil, math.MaxInt64 // a broken core.FS: not worth keeping
		return
	}
	if err == nil && v != (core.FileVersion{}) {
		if v.Ctime <= r.now-racyMargin {
			r.rec = appendVersion(append(b, 1), v)
			r.end()
			return
		}
		r.in.retryAt = max(r.in.retryAt, v.Ctime+racyMargin)
	}
	if r.in.kept += len(data); r.in.kept > maxKeptBytes {
		// Too many recent files to keep: this record cannot be asked
		// again, so it stops here and lets its memory go.
		r.in.whole, r.in.chunks = false, nil
		if r.versioner == nil && r.vr == nil {
			r.in.retryAt = math.MaxInt64 // nor will any later one
		}
		return
	}
	r.rec = append(binary.AppendUvarint(append(b, 0), uint64(len(data))), data...)
	r.end()
}

// Unchanged reports whether fsys answers every call of the record as it
// was answered: then a discovery of the same request through fsys now
// would give the recorded discovery's result. It stops at the first
// difference.
func (in *Inputs) Unchanged(fsys core.FS) bool {
	if in == nil || !in.whole {
		return false
	}
	versioner, _ := fsys.(core.Versioner)
	var buf []byte
	d := decoder{chunks: in.chunks}
	for d.more() {
		kind, p, code := inputKind(d.byte()), d.path(), string(d.bytes())
		switch kind {
		case askReadDir:
			entries, err := fsys.ReadDir(p)
			if core.POSIXCode(err) != code || !d.sameEntries(entries) {
				return false
			}
		case askStat, askLstat:
			stat := fsys.Stat
			if kind == askLstat {
				stat = fsys.Lstat
			}
			t, err := stat(p)
			if c := core.POSIXCode(err); c != code || core.FileType(d.byte()) != t && c == "" {
				return false
			}
		case askRealpath:
			s, err := fsys.Realpath(p)
			if c := core.POSIXCode(err); c != code || string(d.bytes()) != s && c == "" {
				return false
			}
		default:
			within, x := d.readHead()
			if d.byte() == 1 {
				v := d.version()
				if versioner == nil {
					return false
				}
				if now, err := versioner.FileVersion(p); err != nil || now != v {
					return false
				}
				continue
			}
			data := d.bytes()
			if versioner != nil && (code == core.ENOENT || code == core.ENOTDIR) {
				// A read that found no file: so does a stat, for less.
				if _, err := versioner.FileVersion(p); core.POSIXCode(err) != code {
					return false
				}
				continue
			}
			if cap(buf) < x.n {
				buf = make([]byte, x.n)
			}
			w := p
			if len(within) > 0 {
				w = string(within)
			}
			if !readAgain(fsys, kind, w, p, buf[:x.n], x, code, data) {
				return false
			}
		}
	}
	return !d.bad
}

// readAgain makes a recorded read again and reports whether it gave the
// same answer: x, code and data.
func readAgain(fsys core.FS, kind inputKind, within, p string, buf []byte, x read, code string, data []byte) bool {
	var got read
	var err error
	var b []byte
	switch kind {
	case askReadFile:
		b, err = fsys.ReadFile(p)
		got.got = len(b)
	case askReadPrefix:
		got.n = len(buf)
		got.got, got.complete, err = readPrefixInto(fsys, p, buf)
		b = buf[:max(0, min(got.got, len(buf)))]
	case askReadWithin:
		cr, ok := fsys.(core.ContainedReader)
		if !ok {
			return false
		}
		got.n = len(buf)
		got.got, got.size, err = cr.ReadFileWithin(within, p, buf)
		b = buf[:max(0, min(got.got, len(buf)))]
	default:
		return false
	}
	if core.POSIXCode(err) != code {
		return false
	}
	return err != nil || got == x && string(b) == string(data)
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendEntries(b []byte, entries []core.DirEntry) []byte {
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for _, e := range entries {
		b = appendString(append(b, byte(e.Type)), e.Name)
	}
	return b
}

func appendVersion(b []byte, v core.FileVersion) []byte {
	for _, x := range [...]uint64{v.Dev, v.Ino, uint64(v.Size), uint64(v.Mtime), uint64(v.Ctime)} {
		b = binary.AppendUvarint(b, x)
	}
	return b
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// decoder reads the calls of [Inputs]. A record it cannot read (none: the
// recorder wrote it) sets bad, and reads as zeros from then on.
type decoder struct {
	chunks [][]byte
	b      []byte // the rest of the chunk being read
	last   string // the last call's path
	bad    bool
}

// more reports whether a call is left, moving to the next chunk when this
// one is read.
func (d *decoder) more() bool {
	for len(d.b) == 0 && len(d.chunks) > 0 {
		d.b, d.chunks = d.chunks[0], d.chunks[1:]
	}
	return len(d.b) > 0 && !d.bad
}

// path reads a call's path: the part it shares with the last one, then
// the rest.
func (d *decoder) path() string {
	common, rest := d.uvarint(), d.bytes()
	if common > uint64(len(d.last)) {
		d.bad = true
		return ""
	}
	d.last = d.last[:common] + string(rest)
	return d.last
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *decoder) varint() int64 {
	x, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return x
}

// bytes returns the next string, sharing the log's memory: compared as
// string(b) == s, it allocates nothing.
func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return nil
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *decoder) version() core.FileVersion {
	return core.FileVersion{Dev: d.uvarint(), Ino: d.uvarint(), Size: int64(d.uvarint()), Mtime: int64(d.uvarint()), Ctime: int64(d.uvarint())}
}

// readHead reads what a read's record holds before its version or bytes:
// its within (empty when it is the path) and what it was asked and got.
func (d *decoder) readHead() (within []byte, x read) {
	within = d.bytes()
	return within, read{n: int(d.uvarint()), got: int(d.uvarint()), size: d.varint(), complete: d.byte() == 1}
}

// skipAnswer reads past the answer of a call of kind ReadDir, Stat, Lstat
// or Realpath.
func (d *decoder) skipAnswer(kind inputKind) {
	switch kind {
	case askReadDir:
		for n := d.uvarint(); n > 0 && !d.bad; n-- {
			d.byte()
			d.bytes()
		}
	case askStat, askLstat:
		d.byte()
	case askRealpath:
		d.bytes()
	default:
		d.bad = true
	}
}

// sameEntries reads a listing and reports whether it is entries, in order.
func (d *decoder) sameEntries(entries []core.DirEntry) bool {
	n := d.uvarint()
	same := n == uint64(len(entries))
	for i := uint64(0); i < n && !d.bad; i++ {
		t, name := core.FileType(d.byte()), d.bytes()
		same = same && entries[i].Type == t && entries[i].Name == string(name)
	}
	return same
}

// readPrefixInto reads the start of p into buf ([core.ReadFilePrefix]) as a
// [core.PrefixReaderInto] would: complete only when the file fits.
func readPrefixInto(fsys core.FS, p string, buf []byte) (int, bool, error) {
	data, complete, err := core.ReadFilePrefix(fsys, p, buf)
	return copy(buf, data), complete && len(data) <= len(buf), err
}
