package core_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/fsadaptertest"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/fsadapter/osfs"
	"github.com/skilldex/skilldex/internal/benchws"
	fmparser "github.com/skilldex/skilldex/internal/frontmatter"
	"github.com/skilldex/skilldex/wire"
)

// buildBench writes the benchmark workspace (package benchws) with builder.
func buildBench(tb testing.TB, bld fsadaptertest.Builder, entries []benchws.Entry) {
	if err := benchws.Write(bld, entries); err != nil {
		tb.Fatal(err)
	}
}

// checkBench makes sure the workspace is what it claims: about 1000 skills
// loaded (those without frontmatter in roots that require a description
// left out), some shadowed by name and by realpath, an invalid YAML
// warning for each file with one, no other warning but the name collisions
// of the custom directory. It returns the share of the SKILL.md files a
// fresh discovery sent to the complete path (SPEC S5 to S7).
func checkBench(tb testing.TB, fsys core.FS, entries []benchws.Entry) float64 {
	files, invalid := 0, 0
	for _, e := range entries {
		if e.Data != nil && strings.HasSuffix(e.Path, "/SKILL.md") {
			files++
			if strings.Contains(string(e.Data), "\ndescription: Use when: ") {
				invalid++
			}
		}
	}
	complete := 0
	core.UseFrontmatterParser(func(b []byte, path, text string) ([]byte, error) {
		complete++
		return fmparser.AppendParse(b, path, text), nil
	})
	defer core.UseFrontmatterParser(nil)
	out := string(wire.Call(fsys, []byte(benchws.Request)))
	if strings.HasPrefix(out, `{"error"`) || strings.Contains(out, "Failed to") {
		tb.Fatalf("unexpected result: %.300s", out)
	}
	skills := strings.Count(out, `"sourcePath":`)
	byName := strings.Count(out, `"reason":"name"`)
	byReal := strings.Count(out, `"reason":"realpath"`)
	badYAML := strings.Count(out, "invalid YAML")
	if skills < 900 || byName == 0 || byReal < 5 || badYAML != invalid {
		tb.Fatalf("workspace: %d skills, %d shadowed by name, %d by realpath, %d invalid YAML warnings (want %d)", skills, byName, byReal, badYAML, invalid)
	}
	return float64(complete) / float64(files)
}

// BenchmarkDiscover is one whole discover call (JSON request in, JSON out)
// over the 1000-skill workspace, in memory and on disk.
//
//	go test ./core -run '^$' -bench 'Discover|SyscallFloor' -benchtime 200x -count 5
func BenchmarkDiscover(b *testing.B) {
	entries, _ := benchws.Tree()
	b.Run("memfs", func(b *testing.B) {
		m := memfs.New()
		buildBench(b, m, entries)
		benchDiscover(b, m, entries)
	})
	b.Run("osfs", func(b *testing.B) {
		dir := b.TempDir()
		buildBench(b, fsadaptertest.OSBuilder(dir), entries)
		o, err := osfs.Dir(dir)
		if err != nil {
			b.Fatal(err)
		}
		benchDiscover(b, o, entries)
	})
}

// benchDiscover reports, beside the time of a call, the share of the
// files a first call sent to the complete path (complete-path-%).
func benchDiscover(b *testing.B, fsys core.FS, entries []benchws.Entry) {
	share := checkBench(b, fsys, entries)
	req := []byte(benchws.Request)
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		buf = wire.AppendCall(buf[:0], fsys, req)
	}
	b.ReportMetric(100*share, "complete-path-%")
}

// BenchmarkSyscallFloor is the least any engine must do on disk for the
// same workspace: list each root, then read and resolve each SKILL.md
// (os.ReadDir, os.ReadFile, filepath.EvalSymlinks), and nothing else.
// BenchmarkDiscover/osfs divided by this is the engine's overhead.
func BenchmarkSyscallFloor(b *testing.B) {
	entries, roots := benchws.Tree()
	dir := b.TempDir()
	buildBench(b, fsadaptertest.OSBuilder(dir), entries)
	hostRoots := make([]string, len(roots))
	for i, r := range roots {
		hostRoots[i] = filepath.Join(dir, filepath.FromSlash(r))
	}
	files := 0
	b.ResetTimer()
	for b.Loop() {
		files = 0
		for _, root := range hostRoots {
			list, err := os.ReadDir(root)
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range list {
				file := filepath.Join(root, e.Name(), "SKILL.md")
				if _, err := os.ReadFile(file); err != nil {
					continue // a folder without SKILL.md
				}
				if _, err := filepath.EvalSymlinks(file); err != nil {
					b.Fatal(err)
				}
				files++
			}
		}
	}
	if files < benchws.Count {
		b.Fatalf("floor read %d SKILL.md files, want at least %d", files, benchws.Count)
	}
}
