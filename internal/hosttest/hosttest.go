// Package hosttest is what the tests of every Go host of the skilldex
// module share: runtime-test (wazero, through package wasmhost) and
// runtime-test/wasmtime (Wasmtime). A host's tests differ in how they
// instantiate and call the module; what they check is the same, so it is
// written once here:
//
//   - BuildModules builds both modules with the flags of `make build` (or
//     reads those make test built), so every host runs the bytes the
//     others run;
//   - Corpus.Replay sends every conformance case (testdata/conformance)
//     through the host and requires the native reply, byte for byte, and
//     want.json (SPEC S42);
//   - Tree and Request are the small workspace of the trap and memory
//     tests; SwapFS lets one instance serve many trees; PanicFS is a
//     filesystem bug on purpose.
//
// It lives under internal/ so that only this repository's tests import it
// (the Wasmtime tests are a module of their own, in this tree).
package hosttest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/internal/corpus"
	"github.com/skilldex/skilldex/wasm/abi/abitest"
	"github.com/skilldex/skilldex/wire"
)

// Modules are the bytes of the two modules (wasm/ABI.md#the-module and
// #the-frontmatter-module).
type Modules struct {
	Engine, Frontmatter []byte
}

// BuildModules builds both modules from the repository at root into dir,
// with the flags of `make build` (abitest.BuildFlags), and reads them.
// When SKILLDEX_MODULES names a directory, it reads the modules there
// instead: make test sets it to build/, which its wasm target has just
// written from the same source, so the modules are built once per run.
func BuildModules(root, dir string) (Modules, error) {
	var m Modules
	if built := os.Getenv("SKILLDEX_MODULES"); built != "" {
		dir = built
	} else if err := buildModules(root, dir); err != nil {
		return m, err
	}
	var err error
	if m.Engine, err = os.ReadFile(filepath.Join(dir, "skilldex.wasm")); err != nil {
		return m, err
	}
	m.Frontmatter, err = os.ReadFile(filepath.Join(dir, "skilldex-frontmatter.wasm"))
	return m, err
}

// buildModules builds both modules into dir.
func buildModules(root, dir string) error {
	engine := filepath.Join(dir, "skilldex.wasm")
	if err := abitest.Build(root, engine); err != nil {
		return err
	}
	return abitest.BuildFrontmatter(root, filepath.Join(dir, "skilldex-frontmatter.wasm"))
}

// Corpus replays the conformance corpus through one host.
type Corpus struct {
	// Dir is the corpus directory (testdata/conformance).
	Dir string
	// Host names the host in failure messages ("wazero", "Wasmtime").
	Host string
	// OnDisk serves each case's tree from a temporary directory through
	// osfs, a real host filesystem, instead of from memory. The reply must
	// still equal the native one on the in-memory tree; want.json is not
	// checked (it holds the in-memory tree's paths).
	OnDisk bool
}

// Cases loads the corpus; none at all is a failure (a wrong Dir).
func (c Corpus) Cases(t testing.TB) []*corpus.Case {
	t.Helper()
	cases, err := corpus.LoadDir(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no conformance cases in " + c.Dir)
	}
	return cases
}

// Replay runs every case as a subtest: it points swap at the case's tree
// and compares call's reply to wire.Call's on the same tree.
func (c Corpus) Replay(t *testing.T, swap *SwapFS, call func(request []byte) ([]byte, error)) {
	t.Helper()
	for _, k := range c.Cases(t) {
		t.Run(k.Name, func(t *testing.T) {
			native := wire.Call(k.MemFS(), k.Request)
			swap.FS = k.MemFS()
			if c.OnDisk {
				osys, err := k.OSFS(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				swap.FS = osys
			}
			got, err := call(k.Request)
			if err != nil {
				t.Fatalf("%s: %v", k.Path, err)
			}
			if !bytes.Equal(got, native) {
				t.Errorf("%s: S42: %s and native differ\n%s: %s\nnative: %s", k.Path, c.Host, c.Host, got, native)
			}
			// Again on the same tree: a discovery is then answered from
			// the last reply (wire.Session), which must be the same bytes.
			again, err := call(k.Request)
			if err != nil {
				t.Fatalf("%s: again: %v", k.Path, err)
			}
			if !bytes.Equal(again, native) {
				t.Errorf("%s: S42: %s's second call and native differ\n%s: %s\nnative: %s", k.Path, c.Host, c.Host, again, native)
			}
			if !c.OnDisk && k.Want != nil && !bytes.Equal(corpus.Indent(got), k.Want) {
				t.Errorf("%s: %s's reply differs from want.json\ngot:\n%s\nwant:\n%s", k.Path, c.Host, corpus.Indent(got), k.Want)
			}
		})
	}
}

// SwapFS is a core.FS whose target changes between calls, so one instance
// (its Go runtime initialised once) serves many trees. It is a
// core.PrefixReader, as memfs, osfs and the corpus's fault wrapper are, and
// a core.Versioner that gives the target's versions (ENOSYS when it has
// none, as the fault wrapper).
type SwapFS struct{ FS core.FS }

func (s *SwapFS) FileVersion(p string) (core.FileVersion, error) {
	if v, ok := s.FS.(core.Versioner); ok {
		return v.FileVersion(p)
	}
	return core.FileVersion{}, &core.PathError{Op: "fileVersion", Path: p, Code: core.ENOSYS}
}

func (s *SwapFS) ReadDir(p string) ([]core.DirEntry, error) { return s.FS.ReadDir(p) }
func (s *SwapFS) Stat(p string) (core.FileType, error)      { return s.FS.Stat(p) }
func (s *SwapFS) Lstat(p string) (core.FileType, error)     { return s.FS.Lstat(p) }
func (s *SwapFS) ReadFile(p string) ([]byte, error)         { return s.FS.ReadFile(p) }
func (s *SwapFS) Realpath(p string) (string, error)         { return s.FS.Realpath(p) }

func (s *SwapFS) ReadFilePrefix(p string, n int) ([]byte, bool, error) {
	if pr, ok := s.FS.(core.PrefixReader); ok {
		return pr.ReadFilePrefix(p, n)
	}
	panic("SwapFS: the target is not a core.PrefixReader")
}

// PanicFS panics in ReadDir of Path while Armed: a bug in a host's
// filesystem, which traps the call (as an exception thrown by a JS import
// through the module does).
type PanicFS struct {
	core.PrefixReader // an FS with its prefix reads
	Path              string
	Armed             bool
}

func (p *PanicFS) ReadDir(path string) ([]core.DirEntry, error) {
	if p.Armed && path == p.Path {
		panic("panicFS: " + path)
	}
	return p.PrefixReader.ReadDir(path)
}

// Request discovers Tree from its project.
const Request = `{"op":"discover","cwd":"/home/u/proj","home":"/home/u"}`

// Tree is a small workspace: two user skills, one project skill with a
// reference file, and a symlink to it from another root.
func Tree(t testing.TB) *memfs.FS {
	t.Helper()
	m := memfs.New()
	for p, body := range map[string]string{
		"/home/u/.xcsh/agent/skills/a/SKILL.md": "---\nname: a\ndescription: skill a\n---\nbody a\n",
		"/home/u/.claude/skills/b/SKILL.md":     "---\nname: b\ndescription: skill b\nx: [1, 2]\n---\nbody b\n",
		"/home/u/proj/.xcsh/skills/c/SKILL.md":  "---\nname: c\ndescription: skill c\n---\nbody c\n",
		"/home/u/proj/.xcsh/skills/c/ref.md":    "reference\n",
		"/home/u/proj/.git/HEAD":                "ref: main\n",
	} {
		if err := m.WriteFile(p, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Symlink("/home/u/proj/.xcsh/skills/c", "/home/u/.agents/skills/c2"); err != nil {
		t.Fatal(err)
	}
	return m
}
