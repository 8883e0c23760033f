package abitest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/skilldex/skilldex/internal/wasmsnap"
)

// GoldenPath is the golden file of the engine module, relative to the
// repository root; FrontmatterGoldenPath that of the frontmatter module.
const (
	GoldenPath            = "wasm/testdata/abi.golden"
	FrontmatterGoldenPath = "wasm/testdata/abi-frontmatter.golden"
)

// EngineTags are the build tags of the engine module: skilldex_splityaml
// leaves the complete frontmatter path to the frontmatter module.
var EngineTags = []string{"-tags", "skilldex_splityaml"}

// BuildFlags are the go build arguments of both modules' raw builds
// (ABI.md#the-module), without -o and the package. They keep the name
// section, which the snapshot (internal/wasmsnap) reads and then strips.
var BuildFlags = []string{"build", "-buildmode=c-shared", "-trimpath", "-buildvcs=false", "-ldflags=-buildid="}

// Build compiles the engine module from the repository at root into out
// with the go command found on PATH and snapshots its initialisation
// (internal/wasmsnap), as `make build` does; the build's last step, V8's
// compilation hints (internal/wasmhints), adds a custom section that
// changes no import or export, and is left out.
func Build(root, out string) error {
	return buildSnapshot(root, out, "./wasm", wasmsnap.Engine, EngineTags...)
}

// buildSnapshot compiles pkg into out and replaces it with its snapshot.
func buildSnapshot(root, out, pkg string, snapshot func(context.Context, []byte) ([]byte, error), flags ...string) error {
	if err := build(root, out, pkg, flags...); err != nil {
		return err
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	snap, err := snapshot(context.Background(), raw)
	if err != nil {
		return fmt.Errorf("snapshot of %s: %v", out, err)
	}
	return os.WriteFile(out, snap, 0o644)
}

// BuildRaw compiles the engine module into out as Build does, without the
// snapshot: the module keeps its name section and runs its package
// initialisers in _initialize, which ends in the state the snapshot holds.
// For tests that watch the module's functions by name.
func BuildRaw(root, out string) error {
	return build(root, out, "./wasm", EngineTags...)
}

// BuildFrontmatter compiles the frontmatter module and snapshots its
// initialisation, as `make build` does.
func BuildFrontmatter(root, out string) error {
	return buildSnapshot(root, out, "./wasm/frontmatter", wasmsnap.Frontmatter)
}

// Deps returns the packages the wasm build of pkg links (go list -deps).
func Deps(root, pkg string, flags ...string) (map[string]bool, error) {
	args := append(append([]string{"list", "-deps"}, flags...), pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v", strings.Join(args, " "), err)
	}
	deps := map[string]bool{}
	for _, l := range strings.Fields(string(b)) {
		deps[l] = true
	}
	return deps, nil
}

func build(root, out, pkg string, flags ...string) error {
	args := append(append(append([]string{}, BuildFlags...), flags...), "-o", out, pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return nil
}

// ReadGolden reads the engine module's golden file's lines, without blank
// lines and # comments.
func ReadGolden(root string) ([]string, error) {
	return ReadGoldenFile(filepath.Join(root, GoldenPath))
}

// ReadGoldenFile reads a golden file's lines, without blank lines and #
// comments.
func ReadGoldenFile(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines, nil
}

// Header is the comment the golden file starts with.
const Header = "# The skilldex module's imports and exports (wasm/ABI.md#versioning).\n" +
	"# Regenerate with: go test ./wasm/abi -run TestABI_golden -update\n"

// FormatGolden returns the golden file's content for these lines.
func FormatGolden(lines []string) []byte {
	var b bytes.Buffer
	b.WriteString(Header)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Diff describes how got differs from want ("" when equal): the lines only
// one of them has.
func Diff(want, got []string) string {
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, l := range list {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range want {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range got {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}
