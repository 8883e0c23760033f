// Package runtimetest runs the skilldex module (built from ./wasm) under
// wazero through package wasmhost and checks that it answers exactly as the
// native core does: the conformance corpus, the ABI lock, differential
// fuzzing, traps and memory. See README.md.
package runtimetest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/wasm/abi/abitest"
	"github.com/skilldex/skilldex/wasmhost"
)

// root is the repository root, relative to this package.
const root = ".."

var (
	// wasmBytes is the module TestMain built; module is it compiled, once
	// per test binary. Every test instantiates engines from module.
	wasmBytes []byte
	// frontmatterBytes is the frontmatter module TestMain built
	// (wasm/ABI.md#the-frontmatter-module).
	frontmatterBytes []byte
	module           *wasmhost.Module
	// cacheDir is wazero's compilation cache, under the build folder.
	cacheDir string
	// hostOpts are the wasmhost options of every module the tests compile.
	hostOpts []wasmhost.Option
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	ctx := context.Background()
	start := time.Now()
	dir, err := os.MkdirTemp("", "skilldex-runtime-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// The same go build as `make build` (abitest.BuildFlags), with
	// GOOS=wasip1 GOARCH=wasm in the command's environment.
	out := filepath.Join(dir, "skilldex.wasm")
	if err := abitest.Build(root, out); err != nil {
		fmt.Fprintln(os.Stderr, "runtime-test: building the module:", err)
		return 1
	}
	if wasmBytes, err = os.ReadFile(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmOut := filepath.Join(dir, "skilldex-frontmatter.wasm")
	if err := abitest.BuildFrontmatter(root, fmOut); err != nil {
		fmt.Fprintln(os.Stderr, "runtime-test: building the frontmatter module:", err)
		return 1
	}
	if frontmatterBytes, err = os.ReadFile(fmOut); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	built := time.Since(start)
	if cacheDir, err = filepath.Abs(filepath.Join(root, "build", "wazero-cache")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	hostOpts = []wasmhost.Option{wasmhost.WithCompilationCache(cacheDir), wasmhost.WithFrontmatterModule(frontmatterBytes)}
	if os.Getenv("SKILLS_TRACE") == "1" {
		hostOpts = append(hostOpts, wasmhost.WithTrace(os.Stderr), wasmhost.WithStderr(os.Stderr))
	}
	if module, err = wasmhost.Compile(ctx, wasmBytes, hostOpts...); err != nil {
		fmt.Fprintln(os.Stderr, "runtime-test: compiling the module:", err)
		return 1
	}
	defer module.Close(ctx)
	pruneCache(cacheDir, 4)
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "runtime-test: module %d bytes, built in %v, compiled in %v\n",
			len(wasmBytes), built.Round(time.Millisecond), (time.Since(start) - built).Round(time.Millisecond))
	}
	return m.Run()
}

// newEngine instantiates the module over fsys, closed at the end of the test.
func newEngine(t testing.TB, fsys core.FS) *wasmhost.Engine {
	t.Helper()
	e, err := module.Instantiate(context.Background(), fsys)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// swapFS is a core.FS whose target changes between calls, so one engine
// (one instance, initialised once) serves many trees. It is a
// core.PrefixReader, as memfs and the corpus's fault wrapper are.
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

// pruneCache keeps the keep most recently written entries of each of
// wazero's cache directories under dir: every build of the module adds
// about 23 MB, and only the current one is used. An entry removed while in
// use is only a cache miss.
func pruneCache(dir string, keep int) {
	subdirs, _ := os.ReadDir(dir)
	for _, sd := range subdirs {
		if !sd.IsDir() {
			continue
		}
		entries, _ := os.ReadDir(filepath.Join(dir, sd.Name()))
		type file struct {
			name string
			mod  time.Time
		}
		var files []file
		for _, e := range entries {
			if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
				files = append(files, file{e.Name(), info.ModTime()})
			}
		}
		sort.Slice(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
		for i := keep; i < len(files); i++ {
			os.Remove(filepath.Join(dir, sd.Name(), files[i].name))
		}
	}
}
