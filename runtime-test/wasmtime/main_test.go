package wasmtimetest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/wasm/abi/abitest"
)

// root is the repository root, relative to this package.
const root = "../.."

var (
	// wasmBytes is the module TestMain built with the flags of `make
	// build` (the same bytes the other runtimes run); module is it compiled
	// once per test binary, from the cache when an earlier run left it.
	wasmBytes, frontmatterBytes []byte
	module                      *Module
	// cacheDir holds the serialised compiled module; tmpDir the instances'
	// stderr files.
	cacheDir, tmpDir string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	start := time.Now()
	var err error
	if tmpDir, err = os.MkdirTemp("", "skilldex-wasmtime-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmpDir)
	out := filepath.Join(tmpDir, "skilldex.wasm")
	if err := abitest.Build(root, out); err != nil {
		fmt.Fprintln(os.Stderr, "wasmtime: building the module:", err)
		return 1
	}
	if wasmBytes, err = os.ReadFile(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmOut := filepath.Join(tmpDir, "skilldex-frontmatter.wasm")
	if err := abitest.BuildFrontmatter(root, fmOut); err != nil {
		fmt.Fprintln(os.Stderr, "wasmtime: building the frontmatter module:", err)
		return 1
	}
	if frontmatterBytes, err = os.ReadFile(fmOut); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	built := time.Since(start)
	if cacheDir, err = filepath.Abs(filepath.Join(root, "build", "wasmtime-cache")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if module, err = Compile(wasmBytes, frontmatterBytes, cacheDir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	pruneCache(cacheDir, 4) // the two modules of this build and of the one before
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "wasmtime: module %d bytes, built in %v, compiled in %v (from the cache: %v)\n",
			len(wasmBytes), built.Round(time.Millisecond), (time.Since(start) - built).Round(time.Millisecond), module.Cached)
	}
	return m.Run()
}

// newEngine instantiates the module over fsys with no memory cap.
func newEngine(t testing.TB, fsys core.FS) *Engine {
	t.Helper()
	e, err := module.Instantiate(fsys, 0, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// pruneCache keeps the keep newest compiled modules: each build of a
// module adds one (12-20 MB), and only the current ones are used.
func pruneCache(dir string, keep int) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.cwasm"))
	type file struct {
		name string
		mod  time.Time
	}
	var fs []file
	for _, f := range files {
		if info, err := os.Stat(f); err == nil {
			fs = append(fs, file{f, info.ModTime()})
		}
	}
	for i := range fs {
		for j := i + 1; j < len(fs); j++ {
			if fs[j].mod.After(fs[i].mod) {
				fs[i], fs[j] = fs[j], fs[i]
			}
		}
	}
	for i := keep; i < len(fs); i++ {
		os.Remove(fs[i].name)
	}
}

// swapFS is a core.FS whose target changes between calls, so one instance
// serves every corpus case. It is a core.PrefixReader, as memfs and the
// corpus's fault wrapper are.
type swapFS struct{ fs core.FS }

func (s *swapFS) ReadDir(p string) ([]core.DirEntry, error) { return s.fs.ReadDir(p) }
func (s *swapFS) Stat(p string) (core.FileType, error)      { return s.fs.Stat(p) }
func (s *swapFS) Lstat(p string) (core.FileType, error)     { return s.fs.Lstat(p) }
func (s *swapFS) ReadFile(p string) ([]byte, error)         { return s.fs.ReadFile(p) }
func (s *swapFS) Realpath(p string) (string, error)         { return s.fs.Realpath(p) }

func (s *swapFS) ReadFilePrefix(p string, n int) ([]byte, bool, error) {
	if pr, ok := s.fs.(core.PrefixReader); ok {
		return pr.ReadFilePrefix(p, n)
	}
	panic("swapFS: the target is not a core.PrefixReader")
}
