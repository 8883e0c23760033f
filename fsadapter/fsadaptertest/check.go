// Package fsadaptertest checks that a [core.FS] implementation behaves as
// SPEC S2 and the engine require, in the spirit of testing/fstest.TestFS.
//
// The checks run against a known tree, the [Fixture]. Build it with
// [Build] (into a *memfs.FS, or with [OSBuilder] into a host directory),
// then call [Check] on the FS that serves it:
//
//	m := memfs.New()
//	if err := fsadaptertest.Build(m, "/"); err != nil { ... }
//	if err := fsadaptertest.Check(m, "/"); err != nil { t.Fatal(err) }
//
// Check returns an error rather than taking a *testing.T, so it can run
// anywhere Go runs, including a wasip1 test guest checking the host-imports
// adapter (fsadapter/hostfs) against a host that built the fixture with its
// own tools. The package imports neither testing nor, outside osbuilder.go,
// os.
//
// # What is checked
//
// For every probe path (each fixture entry, and paths through files,
// dangling links, loops and missing names), with Linux as the reference:
//
//   - Lstat and Stat give the expected type or POSIX code;
//   - Realpath gives the expected clean absolute path, or the Stat code;
//   - ReadFile gives the file's bytes, EISDIR for a directory, or the Stat
//     code; the returned slice is not aliased (modifying it does not change
//     what the next ReadFile returns);
//   - ReadDir gives the expected set of names, each typed with lstat
//     semantics (a symlink stays "symlink"), in any order and without
//     duplicates; ENOTDIR for a file, or the Stat code;
//   - when the FS implements [core.PrefixReader], ReadFilePrefix agrees with
//     ReadFile for several n (0, 1, the length and around it, more), reports
//     complete exactly when the whole file fits, fails like ReadFile, and
//     does not alias its result;
//   - when the FS implements [core.Versioner], FileVersion follows no link
//     at the path's last element: it gives a file the version of its
//     realpath, the same when asked twice, with the file's size; EISDIR
//     for a directory, EINVAL for a link or anything else, or the Lstat
//     code (or ENOSYS for any path, from an FS that cannot tell);
//   - every error is a [*core.PathError] whose Op is the method's name
//     ("readDir", "stat", "lstat", "readFile" (for ReadFilePrefix too),
//     "realpath", "fileVersion") and whose Path is the path the caller passed, so no host
//     path or host message leaks into results (S42);
//   - a relative path fails with EINVAL in every method;
//   - all of the above gives the same answers from several goroutines at
//     once.
//
// The chain /chain/n00 -> n01 -> ... -> n40 -> /a is 41 links long, one more
// than Linux follows, so /chain/n00 must be ELOOP; /chain/n09, 32 links
// (macOS's limit), must resolve. An FS must not follow more links than the
// OS it stands for, and must follow at least 32.
package fsadaptertest

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/skilldex/skilldex/core"
)

// probe is one path Check examines, with what Linux answers for it. lstat
// and stat are a type name or an error code; real is the realpath relative
// to the fixture root (only when stat succeeds).
type probe struct {
	path, lstat, stat, real string
}

var probes = []probe{
	{"/", "dir", "dir", "/"},
	{"/a", "dir", "dir", "/a"},
	{"/a/b", "dir", "dir", "/a/b"},
	{"/a/b/c.txt", "file", "file", "/a/b/c.txt"},
	{"/a/b/SKILL.md", "file", "file", "/a/b/SKILL.md"},
	{"/a/b/parent", "symlink", "dir", "/a"},
	{"/a/b/parent/b/c.txt", "file", "file", "/a/b/c.txt"},
	{"/a/up", "symlink", "file", "/empty"},
	{"/a/phys", "symlink", "dir", "/a/b"},
	{"/empty", "file", "file", "/empty"},
	{"/emptydir", "dir", "dir", "/emptydir"},
	{"/sp ace", "dir", "dir", "/sp ace"},
	{"/sp ace/ünï 文.md", "file", "file", "/sp ace/ünï 文.md"},
	{"/big", "file", "file", "/big"},
	{"/rel-file", "symlink", "file", "/a/b/c.txt"},
	{"/abs-file", "symlink", "file", "/a/b/c.txt"},
	{"/abs-dir", "symlink", "dir", "/a/b"},
	{"/abs-dir/c.txt", "file", "file", "/a/b/c.txt"},
	{"/abs-dir/parent", "symlink", "dir", "/a"},
	{"/rel-dir", "symlink", "dir", "/a"},
	{"/rel-dir/b/parent/up", "symlink", "file", "/empty"},
	{"/link1", "symlink", "dir", "/a/b"},
	{"/link1/SKILL.md", "file", "file", "/a/b/SKILL.md"},
	{"/link2", "symlink", "dir", "/a/b"},
	{"/link3", "symlink", "dir", "/a/b"},
	{"/loop1", "symlink", core.ELOOP, ""},
	{"/loop2", "symlink", core.ELOOP, ""},
	{"/loop1/x", core.ELOOP, core.ELOOP, ""},
	{"/self", "symlink", core.ELOOP, ""},
	{"/dangling", "symlink", core.ENOENT, ""},
	{"/dangling/x", core.ENOENT, core.ENOENT, ""},
	{"/dangling-abs", "symlink", core.ENOENT, ""},
	{"/through-file", "symlink", core.ENOTDIR, ""},
	{"/trailing", "symlink", core.ENOTDIR, ""},
	{"/root", "symlink", "dir", "/"},
	{"/root/a/b", "dir", "dir", "/a/b"},
	{"/chain", "dir", "dir", "/chain"},
	{"/chain/n00", "symlink", core.ELOOP, ""},
	{"/chain/n09", "symlink", "dir", "/a"}, // 32 links: macOS's limit
	{"/chain/n09/b", "dir", "dir", "/a/b"},
	{"/chain/n39", "symlink", "dir", "/a"},
	{"/missing", core.ENOENT, core.ENOENT, ""},
	{"/missing/x", core.ENOENT, core.ENOENT, ""},
	{"/a/b/c.txt/x", core.ENOTDIR, core.ENOTDIR, ""},
	{"/rel-file/x", core.ENOTDIR, core.ENOTDIR, ""},
	{"/empty/x", core.ENOTDIR, core.ENOTDIR, ""},
	{"/emptydir/x", core.ENOENT, core.ENOENT, ""},
}

// maxErrors bounds the errors Check reports.
const maxErrors = 30

// Check runs every check on fsys, in which the [Fixture] was built under
// the absolute path root ("/" for a tree of its own), and returns all the
// problems found (at most 30), joined, or nil.
//
// Check only reads: it creates nothing. With a root other than "/", root
// itself must have no symlinks in it (pass its realpath).
func Check(fsys core.FS, root string) error {
	if !strings.HasPrefix(root, "/") || path.Clean(root) != root {
		return fmt.Errorf("fsadaptertest: root %q is not an absolute clean path", root)
	}
	c := &checker{fsys: fsys, root: strings.TrimSuffix(root, "/")}
	c.index()
	for _, p := range probes {
		c.probe(p)
	}
	c.relative()
	if len(c.errs) == 0 {
		c.concurrent()
	}
	if len(c.errs) > maxErrors {
		c.errs = append(c.errs[:maxErrors], fmt.Errorf("... and %d more", len(c.errs)-maxErrors))
	}
	return errors.Join(c.errs...)
}

type checker struct {
	fsys    core.FS
	root    string // "" for "/"
	files   map[string]string
	entries map[string][]core.DirEntry // fixture dir -> children, sorted
	mu      sync.Mutex
	errs    []error
}

func (c *checker) errorf(format string, args ...any) {
	c.mu.Lock()
	c.errs = append(c.errs, fmt.Errorf(format, args...))
	c.mu.Unlock()
}

// index derives file contents and directory listings from the Fixture.
func (c *checker) index() {
	c.files = map[string]string{}
	c.entries = map[string][]core.DirEntry{"/": nil}
	for _, e := range Fixture {
		if e.Type == core.TypeFile {
			c.files[e.Path] = e.Data
		}
		if e.Type == core.TypeDir {
			if _, ok := c.entries[e.Path]; !ok {
				c.entries[e.Path] = nil
			}
		}
		dir := path.Dir(e.Path)
		c.entries[dir] = append(c.entries[dir], core.DirEntry{Name: path.Base(e.Path), Type: e.Type})
	}
	for _, es := range c.entries {
		sortEntries(es)
	}
}

func sortEntries(es []core.DirEntry) {
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
}

// abs is the fsys path of the fixture path p.
func (c *checker) abs(p string) string {
	if p == "/" && c.root != "" {
		return c.root
	}
	return c.root + p
}

// code returns "" for nil, else checks that err is a *core.PathError for op
// on p and returns its code.
func (c *checker) code(op, p string, err error) string {
	if err == nil {
		return ""
	}
	var pe *core.PathError
	if !errors.As(err, &pe) {
		c.errorf("%s(%q): error %q (%T) is not a *core.PathError", op, p, err, err)
		return core.POSIXCode(err)
	}
	if pe.Op != op || pe.Path != p {
		c.errorf("%s(%q): PathError has Op %q, Path %q; want the method and the path passed", op, p, pe.Op, pe.Path)
	}
	if pe.Code == "" {
		c.errorf("%s(%q): PathError without a Code", op, p)
	}
	return core.POSIXCode(err)
}

// isCode reports whether an expectation is an error code rather than a type.
func isCode(s string) bool { return len(s) > 1 && s[0] == 'E' && strings.ToUpper(s) == s }

func (c *checker) probe(pr probe) {
	p := c.abs(pr.path)
	typeOrCode := func(op string, t core.FileType, err error) string {
		if code := c.code(op, p, err); code != "" {
			return code
		}
		return t.String()
	}

	t, err := c.fsys.Lstat(p)
	if got := typeOrCode("lstat", t, err); got != pr.lstat {
		c.errorf("Lstat(%q) = %s, want %s", p, got, pr.lstat)
	}
	t, err = c.fsys.Stat(p)
	if got := typeOrCode("stat", t, err); got != pr.stat {
		c.errorf("Stat(%q) = %s, want %s", p, got, pr.stat)
	}

	// Realpath.
	real, err := c.fsys.Realpath(p)
	if code := c.code("realpath", p, err); isCode(pr.stat) {
		if code != pr.stat {
			c.errorf("Realpath(%q) = %q, %v; want %s", p, real, err, pr.stat)
		}
	} else if want := c.abs(pr.real); code != "" || real != want {
		c.errorf("Realpath(%q) = %q, %v; want %q", p, real, err, want)
	}

	// ReadFile.
	wantData, isFile := c.files[pr.real]
	wantReadCode := pr.stat
	if pr.stat == "dir" {
		wantReadCode = core.EISDIR
	}
	data, err := c.fsys.ReadFile(p)
	code := c.code("readFile", p, err)
	switch {
	case pr.stat == "file" && isFile:
		if code != "" || string(data) != wantData {
			c.errorf("ReadFile(%q) = %s, %v; want %s", p, short(data), err, short([]byte(wantData)))
		} else if len(data) > 0 {
			data[0] ^= 0xff
			again, err := c.fsys.ReadFile(p)
			if err != nil || string(again) != wantData {
				c.errorf("ReadFile(%q): the returned slice aliases the FS's data: after modifying it, ReadFile = %s, %v", p, short(again), err)
			}
		}
	case code != wantReadCode:
		c.errorf("ReadFile(%q) = %s, %v; want %s", p, short(data), err, wantReadCode)
	}
	if r, ok := c.fsys.(core.PrefixReader); ok {
		c.prefix(r, p, wantData, pr.stat == "file", wantReadCode)
	}
	if v, ok := c.fsys.(core.Versioner); ok {
		c.version(v, p, pr, wantData, isFile)
	}

	// ReadDir.
	wantReadDirCode := pr.stat
	if pr.stat == "file" {
		wantReadDirCode = core.ENOTDIR
	}
	ents, err := c.fsys.ReadDir(p)
	code = c.code("readDir", p, err)
	if pr.stat != "dir" {
		if code != wantReadDirCode {
			c.errorf("ReadDir(%q) = %v, %v; want %s", p, ents, err, wantReadDirCode)
		}
		return
	}
	if code != "" {
		c.errorf("ReadDir(%q): %v", p, err)
		return
	}
	got := append([]core.DirEntry(nil), ents...)
	sortEntries(got)
	want := c.entries[pr.real]
	if fmt.Sprint(got) != fmt.Sprint(want) {
		c.errorf("ReadDir(%q) = %v, want (in any order) %v", p, fmtEntries(got), fmtEntries(want))
	}
}

// version checks FileVersion on p, which follows no link at its last
// element: a file's version is its realpath's, the same when asked again,
// and carries the file's size; a directory fails with EISDIR, a link or
// anything else with EINVAL, a path Lstat fails on as Lstat does. An FS
// that cannot tell may answer ENOSYS for any path.
func (c *checker) version(v core.Versioner, p string, pr probe, data string, isFile bool) {
	got, err := v.FileVersion(p)
	code := c.code("fileVersion", p, err)
	want := pr.lstat
	switch pr.lstat {
	case "dir":
		want = core.EISDIR
	case "symlink", "other":
		want = core.EINVAL
	}
	switch {
	case code == core.ENOSYS:
	case pr.lstat == "file" && isFile:
		again, err2 := v.FileVersion(p)
		real, err3 := v.FileVersion(c.abs(pr.real))
		if code != "" || err2 != nil || err3 != nil || got != again || got != real || got.Size != int64(len(data)) {
			c.errorf("FileVersion(%q) = %+v, %v; again %+v, %v; of its realpath %+v, %v; want one version, of size %d",
				p, got, err, again, err2, real, err3, len(data))
		}
	case code != want:
		c.errorf("FileVersion(%q) = %+v, %v; want %s", p, got, err, want)
	}
}

// prefix checks ReadFilePrefix on p against ReadFile's expected result.
func (c *checker) prefix(pr core.PrefixReader, p, want string, ok bool, wantCode string) {
	if !ok {
		data, complete, err := pr.ReadFilePrefix(p, 16)
		if code := c.code("readFile", p, err); code != wantCode {
			c.errorf("ReadFilePrefix(%q, 16) = %s, %v, %v; want %s like ReadFile", p, short(data), complete, err, wantCode)
		}
		return
	}
	for _, n := range []int{0, 1, len(want) - 1, len(want), len(want) + 1, 4096, 1 << 20} {
		if n < 0 {
			continue
		}
		data, complete, err := pr.ReadFilePrefix(p, n)
		if c.code("readFile", p, err) != "" {
			c.errorf("ReadFilePrefix(%q, %d): %v", p, n, err)
			continue
		}
		w := want[:min(n, len(want))]
		if string(data) != w || complete != (len(want) <= n) {
			c.errorf("ReadFilePrefix(%q, %d) = %s, complete %v; want %s, complete %v", p, n, short(data), complete, short([]byte(w)), len(want) <= n)
			continue
		}
		if len(data) > 0 {
			data[0] ^= 0xff
			if again, _, err := pr.ReadFilePrefix(p, n); err != nil || string(again) != w {
				c.errorf("ReadFilePrefix(%q, %d): the returned slice aliases the FS's data", p, n)
			}
			if again, err := c.fsys.ReadFile(p); err != nil || string(again) != want {
				c.errorf("ReadFilePrefix(%q, %d): modifying its result changed what ReadFile returns", p, n)
			}
		}
	}
}

// relative checks that a relative path is EINVAL everywhere.
func (c *checker) relative() {
	const p = "a/b"
	_, err := c.fsys.ReadDir(p)
	c.wantCode("readDir", p, err, core.EINVAL)
	_, err = c.fsys.Stat(p)
	c.wantCode("stat", p, err, core.EINVAL)
	_, err = c.fsys.Lstat(p)
	c.wantCode("lstat", p, err, core.EINVAL)
	_, err = c.fsys.ReadFile(p)
	c.wantCode("readFile", p, err, core.EINVAL)
	_, err = c.fsys.Realpath(p)
	c.wantCode("realpath", p, err, core.EINVAL)
	if pr, ok := c.fsys.(core.PrefixReader); ok {
		_, _, err = pr.ReadFilePrefix(p, 1)
		c.wantCode("readFile", p, err, core.EINVAL)
	}
}

func (c *checker) wantCode(op, p string, err error, want string) {
	if code := c.code(op, p, err); code != want {
		c.errorf("%s(%q): %v; want %s for a relative path", op, p, err, want)
	}
}

// concurrent repeats the probes from several goroutines at once.
func (c *checker) concurrent() {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, p := range probes {
				c.probe(p)
			}
		}()
	}
	wg.Wait()
	if len(c.errs) > 0 {
		c.errs = append([]error{errors.New("fsadaptertest: results differ when the FS is used from several goroutines at once")}, c.errs...)
	}
}

func fmtEntries(es []core.DirEntry) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, e := range es {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%q:%s", e.Name, e.Type)
	}
	b.WriteByte(']')
	return b.String()
}

// short quotes data, eliding the middle of long data.
func short(data []byte) string {
	if len(data) > 40 {
		return fmt.Sprintf("%q...(%d bytes)", data[:32], len(data))
	}
	if data == nil {
		return "nil"
	}
	return fmt.Sprintf("%q", data)
}
