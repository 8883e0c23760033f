package layers

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/skilldex/skilldex/"

// mayImport lists, for each package of the module (its directory), the
// packages of the module its non-test files may import; "*" allows any.
// Tests may import more (core's tests call the wire, for instance).
var mayImport = map[string][]string{
	"core":                  {"internal/jsontext", "internal/panictext", "internal/fmrules", "internal/siphash", "internal/frontmatter"},
	"internal/fmrules":      nil,
	"internal/frontmatter":  {"internal/fmrules", "internal/panictext"},
	"internal/jsontext":     nil,
	"internal/panictext":    nil,
	"internal/siphash":      nil,
	"fsadapter/...":         {"core", "wasm/abi", "fsadapter/internal/..."},
	"internal/record":       {"core"},
	"wire":                  {"core", "internal/jsontext", "internal/panictext", "internal/record"},
	"wasm/abi/...":          {"wasm/abi/...", "internal/wasmsnap"}, // abitest builds the module as make build does
	"wasm":                  {"core", "wire", "fsadapter/hostfs", "wasm/abi"},
	"wasm/frontmatter":      {"internal/frontmatter", "wasm/abi"},
	"wasmhost":              {"core", "wire", "wasm/abi"},
	"embed":                 {"wasmhost"}, // registers its modules as wasmhost's defaults
	"internal/corpus":       {"*"},        // tools and tests around the layers
	"internal/hosttest":     {"*"},        // what the hosts' tests share
	"internal/benchratio":   nil,
	"internal/notices":      nil,
	"internal/provenance":   nil,
	"internal/wasmsnap/...": {"internal/wasmsnap"}, // the build's snapshot of the engine module
	// the build's compilation hints, found by replaying discoveries through wasmhost
	"internal/wasmhints/...": {"internal/wasmhints", "internal/wasmsnap", "core", "wasmhost", "fsadapter/memfs", "fsadapter/osfs", "internal/benchws"},
	"internal/benchws":       nil, // the Go benchmarks' workspace
	"examples/...":           {"*"},
	"runtime-test/...":       {"*"}, // runtime-test/wasmtime is its own Go module (cgo)
	"internal/layers":        nil,   // repository checks: test-only packages
	"internal/references":    nil,
}

// matches reports whether pkg is pattern, or below it for a pattern ending
// in "/..." (as the go command reads it).
func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pattern == "*" || pattern == pkg
}

// rule returns the allowed imports of pkg: its own entry, or the entry of
// the longest pattern that matches it.
func rule(pkg string) ([]string, bool) {
	if r, ok := mayImport[pkg]; ok {
		return r, true
	}
	best := ""
	for pattern := range mayImport {
		if matches(pattern, pkg) && len(pattern) > len(best) {
			best = pattern
		}
	}
	r, ok := mayImport[best]
	return r, ok
}

// imports returns the module packages the non-test files of each package
// directory below root import, whatever their build tags.
func imports(t *testing.T, root string) map[string][]string {
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || rel == "build" || rel == "js") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if dep, ok := strings.CutPrefix(path, module); ok && !slices.Contains(out[pkg], dep) {
				out[pkg] = append(out[pkg], dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLayers(t *testing.T) {
	if _, err := os.Stat("../../go.mod"); err != nil {
		t.Fatal(err)
	}
	got := imports(t, "../..")
	if len(got) < len(mayImport)/2 {
		t.Fatalf("found only %d packages: is the walk broken?", len(got))
	}
	for pkg, deps := range got {
		allowed, ok := rule(pkg)
		if !ok {
			t.Errorf("package %s has no place in the layers: add it to mayImport and ARCHITECTURE.md", pkg)
			continue
		}
		for _, dep := range deps {
			if !slices.ContainsFunc(allowed, func(p string) bool { return matches(p, dep) }) {
				t.Errorf("%s imports %s, which ARCHITECTURE.md's layers do not allow", pkg, dep)
			}
		}
	}
}
