// Package corpus loads the conformance corpus, testdata/conformance/*.txtar,
// and builds the filesystems a driver runs each case against: a memfs
// mounted at "/" ([Case.MemFS]) or the tree written to a host directory and
// served by osfs.Dir ([Case.OSFS]), both wrapped with the case's injected
// faults.
//
// The file format is specified in testdata/conformance/README.md; the JS
// drivers re-implement this loader from that document. In short:
//
//	free text, and directive lines:
//	rules: S11 S12
//	fault: readFile /home/u/.xcsh/skills/a/SKILL.md EACCES
//	-- request.json --
//	{"op":"discover","cwd":"/work/proj","home":"/home/u"}
//	-- want.json --
//	{ ...pretty JSON... }
//	-- home/u/.xcsh/skills/a/SKILL.md --
//	file contents
//	-- empty/dir/ --
//	-- home/u/link -> ../target --
package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/fsadaptertest"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/fsadapter/osfs"
)

// Section names with a meaning of their own; every other section is an
// entry of the tree.
const (
	RequestSection = "request.json"
	WantSection    = "want.json"
)

// Ops are the FS operations a fault may name.
var Ops = []string{"readDir", "stat", "lstat", "readFile", "realpath"}

// Case is one conformance case.
type Case struct {
	Name    string // file name without ".txtar"
	Path    string // the file it was loaded from
	Comment string // the archive comment, directives included
	Rules   []string
	Entries []Entry // the tree, in file order
	Faults  []Fault
	Request []byte // the request.json section, as written
	Want    []byte // the want.json section, as written; nil when absent
	Archive *txtar.Archive
}

// Entry is one file, directory or symlink of a case's tree.
type Entry struct {
	Path   string        // absolute virtual path, e.g. "/home/u/x"
	Type   core.FileType // TypeFile, TypeDir or TypeSymlink
	Data   []byte        // TypeFile: the contents
	Target string        // TypeSymlink: the target, as written
	Line   int           // line of the section header in the file
}

// Fault makes one FS operation on exactly one path fail.
type Fault struct {
	Op   string // one of [Ops]
	Path string // absolute virtual path, compared exactly
	Code string // POSIX code, e.g. "EACCES"
	Line int
}

// LoadDir loads every *.txtar file of dir, sorted by name. A malformed case
// is an error naming its file and line.
func LoadDir(dir string) ([]*Case, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	cases := make([]*Case, 0, len(names))
	for _, name := range names {
		c, err := LoadFile(name)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// LoadFile loads one case.
func LoadFile(file string) (*Case, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, data)
}

// Parse parses the case in data; file names it in errors and becomes
// [Case.Path].
func Parse(file string, data []byte) (*Case, error) {
	a := txtar.Parse(data)
	c := &Case{
		Name:    strings.TrimSuffix(filepath.Base(file), ".txtar"),
		Path:    file,
		Comment: string(a.Comment),
		Archive: a,
	}
	errorf := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, args...))
	}

	// The directives of the comment.
	haveRules := false
	for i, line := range strings.Split(string(a.Comment), "\n") {
		lineNo := i + 1
		line = strings.TrimRight(line, " \t\r")
		switch {
		case strings.HasPrefix(line, "rules:"):
			if haveRules {
				return nil, errorf(lineNo, "second rules: line")
			}
			haveRules = true
			c.Rules = strings.Fields(line[len("rules:"):])
			if len(c.Rules) == 0 {
				return nil, errorf(lineNo, "rules: names no rule")
			}
			for _, r := range c.Rules {
				if !validRule(r) {
					return nil, errorf(lineNo, "rules: %q is not a rule id like S11", r)
				}
			}
		case strings.HasPrefix(line, "fault:"):
			f := strings.Fields(line[len("fault:"):])
			if len(f) != 3 {
				return nil, errorf(lineNo, "fault: want <op> <abs-path> <CODE>, got %q", line)
			}
			if !validOp(f[0]) {
				return nil, errorf(lineNo, "fault: unknown op %q (want one of %s)", f[0], strings.Join(Ops, ", "))
			}
			if !strings.HasPrefix(f[1], "/") || path.Clean(f[1]) != f[1] {
				return nil, errorf(lineNo, "fault: path %q is not absolute and clean", f[1])
			}
			if !validCode(f[2]) {
				return nil, errorf(lineNo, "fault: %q is not a POSIX code like EACCES", f[2])
			}
			c.Faults = append(c.Faults, Fault{Op: f[0], Path: f[1], Code: f[2], Line: lineNo})
		}
	}
	if !haveRules {
		return nil, errorf(1, "missing rules: line in the comment")
	}

	// The sections, with the line of each header.
	line := 1 + bytes.Count(a.Comment, []byte("\n"))
	seen := map[string]int{}
	kinds := map[string]core.FileType{} // virtual path -> type, for conflicts
	for _, f := range a.Files {
		lineNo := line
		line += 1 + bytes.Count(f.Data, []byte("\n"))
		if prev, ok := seen[f.Name]; ok {
			return nil, errorf(lineNo, "section %q repeats line %d", f.Name, prev)
		}
		seen[f.Name] = lineNo
		switch f.Name {
		case RequestSection:
			c.Request = f.Data
			continue
		case WantSection:
			c.Want = f.Data
			continue
		}
		e := Entry{Type: core.TypeFile, Data: f.Data, Line: lineNo}
		name := f.Name
		if strings.HasSuffix(name, " ->") {
			return nil, errorf(lineNo, "symlink %q has an empty target", strings.TrimSuffix(name, " ->"))
		}
		if i := strings.Index(name, " -> "); i >= 0 {
			e.Type, e.Data, e.Target = core.TypeSymlink, nil, name[i+len(" -> "):]
			name = name[:i]
			if e.Target == "" {
				return nil, errorf(lineNo, "symlink %q has an empty target", name)
			}
		} else if strings.HasSuffix(name, "/") {
			e.Type, e.Data = core.TypeDir, nil
			name = strings.TrimSuffix(name, "/")
		}
		if e.Type != core.TypeFile && len(f.Data) != 0 {
			return nil, errorf(lineNo, "%s section %q must be empty", e.Type, f.Name)
		}
		if name == "" || strings.HasPrefix(name, "/") || path.Clean(name) != name || name == "." ||
			name == ".." || strings.HasPrefix(name, "../") {
			return nil, errorf(lineNo, "path %q must be relative to the case root and clean", name)
		}
		e.Path = "/" + name
		// A path may not be both a file (or link) and a directory.
		for p := path.Dir(e.Path); p != "/"; p = path.Dir(p) {
			if t, ok := kinds[p]; ok && t != core.TypeDir {
				return nil, errorf(lineNo, "%s is under %s, which is a %s", e.Path, p, t)
			}
			kinds[p] = core.TypeDir
		}
		if t, ok := kinds[e.Path]; ok && (t != core.TypeDir || e.Type != core.TypeDir) {
			return nil, errorf(lineNo, "%s is given twice (as a %s and a %s)", e.Path, t, e.Type)
		}
		kinds[e.Path] = e.Type
		c.Entries = append(c.Entries, e)
	}
	if c.Request == nil {
		return nil, errorf(1, "missing -- %s -- section", RequestSection)
	}
	if !json.Valid(c.Request) {
		return nil, errorf(seen[RequestSection]+1, "%s is not valid JSON", RequestSection)
	}
	return c, nil
}

func validRule(r string) bool {
	if len(r) < 2 || r[0] != 'S' {
		return false
	}
	for _, c := range r[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func validOp(op string) bool {
	for _, o := range Ops {
		if o == op {
			return true
		}
	}
	return false
}

func validCode(code string) bool {
	if len(code) < 2 || code[0] != 'E' {
		return false
	}
	for _, c := range code {
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Build creates the case's tree with b: directories, then files, then
// symlinks (so a link never stands where a parent directory is needed).
func (c *Case) Build(b fsadaptertest.Builder) error {
	for _, pass := range []core.FileType{core.TypeDir, core.TypeFile, core.TypeSymlink} {
		for _, e := range c.Entries {
			if e.Type != pass {
				continue
			}
			var err error
			switch e.Type {
			case core.TypeDir:
				err = b.Mkdir(e.Path)
			case core.TypeFile:
				err = b.WriteFile(e.Path, e.Data)
			case core.TypeSymlink:
				err = b.Symlink(e.Target, e.Path)
			}
			if err != nil {
				return fmt.Errorf("%s:%d: %v", c.Path, e.Line, err)
			}
		}
	}
	return nil
}

// MemFS returns the case's tree in a memfs mounted at "/", wrapped with
// the case's faults.
func (c *Case) MemFS() core.FS {
	m := memfs.New()
	if err := c.Build(m); err != nil {
		// Parse rejects every tree memfs cannot build.
		panic(err)
	}
	return WithFaults(m, c.Faults)
}

// OSFS writes the case's tree under the existing host directory dir (an
// absolute symlink target "/x" becomes dir+"/x" on disk) and returns
// osfs.Dir(dir) wrapped with the case's faults.
func (c *Case) OSFS(dir string) (core.FS, error) {
	if err := c.Build(fsadaptertest.OSBuilder(dir)); err != nil {
		return nil, err
	}
	o, err := osfs.Dir(dir)
	if err != nil {
		return nil, err
	}
	return WithFaults(o, c.Faults), nil
}

// SetWant replaces (or adds, after request.json) the want.json section
// with pretty and rewrites the case's file.
func (c *Case) SetWant(pretty []byte) error {
	files := c.Archive.Files
	i := 0
	for i < len(files) && files[i].Name != WantSection {
		i++
	}
	if i == len(files) {
		j := 0
		for j < len(files) && files[j].Name != RequestSection {
			j++
		}
		j++ // after request.json, or at the end if there is none
		if j > len(files) {
			j = len(files)
		}
		files = append(files[:j], append([]txtar.File{{Name: WantSection}}, files[j:]...)...)
		i = j
	}
	files[i].Data = pretty
	c.Archive.Files = files
	if err := os.WriteFile(c.Path, txtar.Format(c.Archive), 0o644); err != nil {
		return err
	}
	c.Want = pretty
	return nil
}

// Indent pretty-prints compact JSON the way JSON.stringify(x, null, 2)
// does, plus a final newline: the form of a want.json section. Input that
// is not valid JSON is returned as is, plus a newline, so that the
// mismatch shows in a diff.
func Indent(compact []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", "  "); err != nil {
		return append(append([]byte{}, compact...), '\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}
