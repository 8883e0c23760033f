package wasmtimetest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/internal/hosttest"
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
	mods, err := hosttest.BuildModules(root, tmpDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmtime: building the modules:", err)
		return 1
	}
	wasmBytes, frontmatterBytes = mods.Engine, mods.Frontmatter
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
