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
	"github.com/skilldex/skilldex/internal/hosttest"
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
	mods, err := hosttest.BuildModules(root, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "runtime-test: building the modules:", err)
		return 1
	}
	wasmBytes, frontmatterBytes = mods.Engine, mods.Frontmatter
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
