package abi_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/wasm/abi"
	"github.com/skilldex/skilldex/wasm/abi/abitest"
)

var update = flag.Bool("update", false, "rewrite wasm/testdata/abi.golden")

const root = "../.."

var (
	imports = []string{abi.ImportReadDir, abi.ImportStat, abi.ImportLstat, abi.ImportReadFile, abi.ImportRealpath, abi.ImportParseFrontmatter, abi.ImportReadFileWithin, abi.ImportSHA256, abi.ImportPrefetchWithin, abi.ImportFileVersion}
	exports = []string{abi.ExportVersion, abi.ExportAlloc, abi.ExportCall}
)

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// directives returns the //go:<kind> lines of a Go file: module and name
// for wasmimport, name for wasmexport.
func directives(src, kind string) [][]string {
	var out [][]string
	for _, m := range regexp.MustCompile(`(?m)^//go:`+kind+` (.*)$`).FindAllStringSubmatch(src, -1) {
		out = append(out, strings.Fields(m[1]))
	}
	return out
}

// The //go:wasmimport directives of the guest use exactly the ABI's names.
func TestABI_importDirectives(t *testing.T) {
	var got []string
	for _, d := range directives(read(t, "fsadapter/hostfs/hostfs.go")+read(t, "wasm/frontmatter_host.go")+read(t, "wasm/digest_host.go"), "wasmimport") {
		if len(d) != 2 || d[0] != abi.HostModule {
			t.Errorf("wasmimport %v: want module %s", d, abi.HostModule)
			continue
		}
		got = append(got, d[1])
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(imports))
	if !slices.Equal(got, want) {
		t.Errorf("wasmimport names = %v, want %v", got, want)
	}
}

func TestABI_exportDirectives(t *testing.T) {
	var got []string
	for _, d := range directives(read(t, "wasm/main.go"), "wasmexport") {
		got = append(got, d...)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(exports))
	if !slices.Equal(got, want) {
		t.Errorf("wasmexport names = %v, want %v", got, want)
	}
}

// ABI.md documents every name, errno and type of package abi.
func TestABI_documented(t *testing.T) {
	doc := read(t, "wasm/ABI.md")
	for _, name := range append(append([]string{abi.HostModule, abi.WASIModule, abi.ExportInitialize, abi.ExportFrontmatterParse}, imports...), exports...) {
		if !strings.Contains(doc, "`"+name+"`") {
			t.Errorf("ABI.md does not mention `%s`", name)
		}
		if !strings.Contains(doc, "### "+name+"\n") && name != abi.HostModule && name != abi.WASIModule && name != abi.ExportInitialize && name != abi.ExportFrontmatterParse {
			t.Errorf("ABI.md has no section ### %s", name)
		}
	}
	for e, name := range abi.ErrnoNames {
		row := "| " + strconv.Itoa(int(e)) + " | `" + name + "` |"
		if !strings.Contains(doc, row) {
			t.Errorf("ABI.md errno table lacks %q", row)
		}
		if abi.CodeOf(e) != name || abi.ErrnoOf(name) != e {
			t.Errorf("CodeOf/ErrnoOf disagree with ErrnoNames for %d %s", e, name)
		}
	}
	for _, row := range []string{
		"| 0 | `OK` |",
		"| " + strconv.Itoa(int(abi.BufferTooSmall)) + " | `BufferTooSmall` |",
		"**This is ABI version " + strconv.Itoa(abi.Version) + ".**",
	} {
		if !strings.Contains(doc, row) {
			t.Errorf("ABI.md lacks %q", row)
		}
	}
	// The version is stated once; every other number that names one is
	// the same (the import module's name, the minimal host's constant).
	for _, m := range regexp.MustCompile(`skilldex_host_v(\d+)|ABI_VERSION = (\d+)`).FindAllStringSubmatch(doc, -1) {
		if n := m[1] + m[2]; n != strconv.Itoa(abi.Version) {
			t.Errorf("ABI.md mentions %q, but the ABI version is %d", m[0], abi.Version)
		}
	}
	if abi.HostModule != "skilldex_host_v"+strconv.Itoa(abi.Version) {
		t.Errorf("HostModule %s does not carry Version %d", abi.HostModule, abi.Version)
	}
	for typ, word := range map[uint32]string{abi.TypeOther: "other", abi.TypeFile: "regular file", abi.TypeDir: "directory", abi.TypeSymlink: "symbolic link"} {
		if !strings.Contains(doc, "| "+strconv.Itoa(int(typ))+" | "+word) {
			t.Errorf("ABI.md type table lacks %d %s", typ, word)
		}
	}
}

func TestABI_codes(t *testing.T) {
	for _, tc := range []struct {
		e    abi.Errno
		code string
	}{
		{abi.OK, "EIO"}, {abi.ENOENT, "ENOENT"}, {abi.EPERM, "EPERM"},
		{abi.BufferTooSmall, "EIO"}, {abi.EXDEV, "EXDEV"}, {abi.ENOSYS, "ENOSYS"}, {13, "EIO"}, {1 << 31, "EIO"},
	} {
		if got := abi.CodeOf(tc.e); got != tc.code {
			t.Errorf("CodeOf(%d) = %s, want %s", tc.e, got, tc.code)
		}
	}
	if abi.ErrnoOf("EWHATEVER") != abi.EIO {
		t.Error("ErrnoOf(unknown) is not EIO")
	}
}

// The module's imports and exports, with signatures, equal
// wasm/testdata/abi.golden; and the golden file's skilldex entries are
// exactly those of package abi. Builds the module.
func TestABI_golden(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm module; skipped with -short")
	}
	out := filepath.Join(t.TempDir(), "skilldex.wasm")
	if err := abitest.Build(root, out); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := abitest.Signatures(bin)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(filepath.Join(root, abitest.GoldenPath), abitest.FormatGolden(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := abitest.ReadGolden(root)
	if err != nil {
		t.Fatal(err)
	}
	if d := abitest.Diff(want, got); d != "" {
		t.Errorf("module differs from %s (- golden, + module); if intended, run go test ./wasm/abi -run TestABI_golden -update and update ABI.md:\n%s", abitest.GoldenPath, d)
	}
	var names []string
	for _, l := range want {
		f := strings.Fields(l)
		switch {
		case f[0] == "import" && f[1] == abi.HostModule:
			names = append(names, "import "+f[2])
		case f[0] == "import" && f[1] != abi.WASIModule:
			t.Errorf("golden imports from unknown module: %s", l)
		case f[0] == "export":
			names = append(names, "export "+f[1])
		}
	}
	var wantNames []string
	for _, n := range imports {
		wantNames = append(wantNames, "import "+n)
	}
	for _, n := range append(exports, abi.ExportInitialize, abi.ExportMemory) {
		wantNames = append(wantNames, "export "+n)
	}
	slices.Sort(names)
	slices.Sort(wantNames)
	if !slices.Equal(names, wantNames) {
		t.Errorf("golden skilldex names = %v, want %v", names, wantNames)
	}
}

// The frontmatter module exports what ABI.md#the-frontmatter-module lists.
func TestABI_frontmatterExportDirectives(t *testing.T) {
	var got []string
	for _, d := range directives(read(t, "wasm/frontmatter/main.go"), "wasmexport") {
		got = append(got, d...)
	}
	slices.Sort(got)
	want := []string{abi.ExportVersion, abi.ExportAlloc, abi.ExportFrontmatterParse}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("wasmexport names = %v, want %v", got, want)
	}
}

// The frontmatter module's imports and exports equal
// wasm/testdata/abi-frontmatter.golden: WASI only, and its four exports.
func TestABI_frontmatterGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm module; skipped with -short")
	}
	out := filepath.Join(t.TempDir(), "skilldex-frontmatter.wasm")
	if err := abitest.BuildFrontmatter(root, out); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := abitest.Signatures(bin)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, abitest.FrontmatterGoldenPath)
	if *update {
		if err := os.WriteFile(path, abitest.FormatGolden(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := abitest.ReadGoldenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := abitest.Diff(want, got); d != "" {
		t.Errorf("the frontmatter module differs from %s (- golden, + module); if intended, run go test ./wasm/abi -run Golden -update and update ABI.md:\n%s", abitest.FrontmatterGoldenPath, d)
	}
	for _, l := range want {
		if f := strings.Fields(l); f[0] == "import" && f[1] != abi.WASIModule {
			t.Errorf("the frontmatter module imports from a module other than WASI: %s", l)
		}
	}
}

// TestABI_buildDeps: go list -deps of each build puts the card's libraries
// where the start-up budget puts them: the engine module links gobwas/glob and neither
// yaml.v3 nor adrg/frontmatter; the frontmatter module links both.
func TestABI_buildDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list; skipped with -short")
	}
	engine, err := abitest.Deps(root, "./wasm", abitest.EngineTags...)
	if err != nil {
		t.Fatal(err)
	}
	fm, err := abitest.Deps(root, "./wasm/frontmatter")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		deps map[string]bool
		pkg  string
		want bool
	}{
		{engine, "github.com/gobwas/glob", true},
		{engine, "go.yaml.in/yaml/v3", false},
		{engine, "github.com/adrg/frontmatter", false},
		{engine, "gopkg.in/yaml.v2", false},
		{engine, "github.com/skilldex/skilldex/internal/frontmatter", false},
		{fm, "go.yaml.in/yaml/v3", true},
		{fm, "github.com/adrg/frontmatter", true},
		{fm, "github.com/skilldex/skilldex/core", false},
	} {
		if c.deps[c.pkg] != c.want {
			t.Errorf("%s in the deps: %v, want %v", c.pkg, c.deps[c.pkg], c.want)
		}
	}
}

// TestRequestBuffer: the buffer holds the size asked for, is kept when it
// does, is at least 4 KiB, and nothing over MaxRequest is handed out.
func TestRequestBuffer(t *testing.T) {
	var buf []byte
	for _, tc := range []struct {
		size   uint32
		ok     bool
		length int  // the length handed out
		same   bool // the previous buffer kept
	}{
		{0, true, 4096, false},
		{100, true, 4096, true},
		{4096, true, 4096, true},
		{5000, true, 5000, false},
		{100, true, 5000, true},
		{abi.MaxRequest + 1, false, 5000, true},
	} {
		before := buf
		got, ok := abi.RequestBuffer(buf, tc.size)
		if ok != tc.ok || len(got) != tc.length || (len(before) > 0 && (&got[0] == &before[0]) != tc.same) {
			t.Errorf("RequestBuffer(%d bytes, %d) = %d bytes, %v; want %d, %v (kept: %v)", len(before), tc.size, len(got), ok, tc.length, tc.ok, tc.same)
		}
		buf = got
	}
}
