package core_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/fsadaptertest"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/fsadapter/osfs"
	"github.com/skilldex/skilldex/wire"
)

// The benchmark workspace: 1000 skills spread over the roots of every
// provider (user and project levels, an ancestor of cwd, two plugins and a
// custom directory), with realistic SKILL.md files (1-8 KB, 5-10
// frontmatter keys), a few symlinked skill folders and a few names found in
// more than one root.
const (
	benchHome  = "/home/u"
	benchCwd   = "/work/repo/pkg"
	benchCount = 1000
)

// benchRoots are the roots the skills are spread over, with a weight each.
var benchRoots = []struct {
	dir    string
	weight int
}{
	{benchHome + "/.xcsh/agent/skills", 15},
	{benchHome + "/.claude/skills", 20},
	{benchHome + "/.agents/skills", 8},
	{benchHome + "/.agent/skills", 2},
	{benchHome + "/.codex/skills", 5},
	{"/work/repo/pkg/.xcsh/skills", 10},
	{"/work/repo/pkg/.claude/skills", 8},
	{"/work/repo/.claude/skills", 6},
	{"/work/repo/.agents/skills", 6},
	{"/work/repo/pkg/.codex/skills", 3},
	{"/plugins/kit/skills", 6},
	{"/plugins/docs/skills", 4},
	{"/opt/team-skills", 7},
}

const benchRegistry = `{"version": 2, "plugins": {
  "kit@market": [{"scope": "user", "installPath": "/plugins/kit", "version": "1.2.0"}],
  "docs@market": [{"scope": "project", "installPath": "/plugins/docs", "projectPath": "/work/repo"}]
}}
`

// benchRequest is the discover request of the benchmark.
const benchRequest = `{"op":"discover","cwd":"` + benchCwd + `","home":"` + benchHome +
	`","options":{"customDirectories":["/opt/team-skills"]}}`

// benchEntry is one file or symlink of the generated tree.
type benchEntry struct {
	path   string
	data   []byte // nil for a symlink
	target string
}

// benchTree generates the workspace, deterministically.
func benchTree() (entries []benchEntry, roots []string) {
	rng := rand.New(rand.NewPCG(1, 2))
	entries = append(entries,
		benchEntry{path: "/work/repo/.git/HEAD", data: []byte("ref: refs/heads/main\n")},
		benchEntry{path: benchHome + "/.claude/plugins/installed_plugins.json", data: []byte(benchRegistry)},
	)
	total := 0
	for _, r := range benchRoots {
		total += r.weight
		roots = append(roots, r.dir)
	}
	words := strings.Fields("the a skill for when you need to review test deploy write format lint pdf " +
		"tables charts commit message release notes database schema migration api client server " +
		"frontend backend docs security audit performance profile trace logs metrics")
	sentence := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	n := 0
	for ri, r := range benchRoots {
		count := benchCount * r.weight / total
		if ri == len(benchRoots)-1 {
			count = benchCount - n // the remainder, so the total is exact
		}
		for i := 0; i < count; i++ {
			name := fmt.Sprintf("skill-%03d-%s", n, words[rng.IntN(len(words))])
			if n%97 == 0 && n > 0 {
				name = fmt.Sprintf("shared-%d", n%5) // a name found in several roots
			}
			n++
			dir := r.dir + "/" + name
			if n%150 == 0 {
				// A symlinked skill folder pointing into a shared store.
				store := "/shared/store/" + name
				entries = append(entries, benchEntry{path: store + "/SKILL.md", data: benchSkill(rng, name, sentence)})
				entries = append(entries, benchEntry{path: dir, target: store})
				continue
			}
			entries = append(entries, benchEntry{path: dir + "/SKILL.md", data: benchSkill(rng, name, sentence)})
			if n%8 == 0 {
				entries = append(entries, benchEntry{path: dir + "/reference.md", data: []byte(sentence(40) + "\n")})
			}
		}
	}
	// A few links to skills of another root: the same file reached twice.
	for i := 1; i <= 5; i++ {
		entries = append(entries, benchEntry{
			path:   fmt.Sprintf("%s/.agents/skills/linked-%d", benchHome, i),
			target: "../../.claude/skills/" + benchSkillName(entries, benchHome+"/.claude/skills/", i),
		})
	}
	return entries, roots
}

// benchSkillName returns the folder name of the i-th skill under root.
func benchSkillName(entries []benchEntry, root string, i int) string {
	for _, e := range entries {
		if rest, ok := strings.CutPrefix(e.path, root); ok && e.data != nil && strings.HasSuffix(rest, "/SKILL.md") {
			if i--; i == 0 {
				return strings.TrimSuffix(rest, "/SKILL.md")
			}
		}
	}
	panic("no such skill")
}

// benchSkill returns a SKILL.md of 1-8 KB with 5-10 frontmatter keys.
func benchSkill(rng *rand.Rand, name string, sentence func(int) string) []byte {
	var b strings.Builder
	b.WriteString("---\n")
	b.WriteString("name: " + name + "\n")
	b.WriteString("description: Use this skill to " + sentence(12+rng.IntN(20)) + ".\n")
	extras := []string{
		"version: 1." + fmt.Sprint(rng.IntN(10)) + ".0\n",
		"license: MIT\n",
		"globs: [\"**/*.ts\", \"src/**/*.go\"]\n",
		"alwaysApply: false\n",
		"allowed-tools: [read, bash, edit]\n",
		"metadata:\n  author: team-" + fmt.Sprint(rng.IntN(20)) + "\n  category: " + sentence(1) + "\n",
		"tags: [" + strings.ReplaceAll(sentence(3), " ", ", ") + "]\n",
		"compatibility: Works with " + sentence(4) + "\n",
	}
	for _, i := range rng.Perm(len(extras))[:3+rng.IntN(6)] { // 5 to 10 keys in all
		b.WriteString(extras[i])
	}
	b.WriteString("---\n\n# " + name + "\n\n")
	size := 1024 + rng.IntN(7*1024)
	for b.Len() < size {
		b.WriteString(sentence(14) + ".\n")
	}
	return []byte(b.String())
}

// buildBench writes the workspace with builder.
func buildBench(tb testing.TB, bld fsadaptertest.Builder, entries []benchEntry) {
	for _, e := range entries {
		var err error
		if e.data == nil {
			err = bld.Symlink(e.target, e.path)
		} else {
			err = bld.WriteFile(e.path, e.data)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// checkBench makes sure the workspace is what it claims: about 1000 skills
// loaded, some shadowed by name and by realpath, no warning but the name
// collisions of the custom directory.
func checkBench(tb testing.TB, fsys core.FS) {
	out := string(wire.Call(fsys, []byte(benchRequest)))
	if strings.HasPrefix(out, `{"error"`) || strings.Contains(out, "Failed to") || strings.Contains(out, "invalid YAML") {
		tb.Fatalf("unexpected result: %.300s", out)
	}
	skills := strings.Count(out, `"sourcePath":`)
	byName := strings.Count(out, `"reason":"name"`)
	byReal := strings.Count(out, `"reason":"realpath"`)
	if skills < 950 || byName == 0 || byReal < 5 {
		tb.Fatalf("workspace: %d skills, %d shadowed by name, %d by realpath", skills, byName, byReal)
	}
}

// BenchmarkDiscover is one whole discover call (JSON request in, JSON out)
// over the 1000-skill workspace, in memory and on disk.
//
//	go test ./core -run '^$' -bench 'Discover|SyscallFloor' -benchtime 200x -count 5
func BenchmarkDiscover(b *testing.B) {
	entries, _ := benchTree()
	b.Run("memfs", func(b *testing.B) {
		m := memfs.New()
		buildBench(b, m, entries)
		benchDiscover(b, m)
	})
	b.Run("osfs", func(b *testing.B) {
		dir := b.TempDir()
		buildBench(b, fsadaptertest.OSBuilder(dir), entries)
		o, err := osfs.Dir(dir)
		if err != nil {
			b.Fatal(err)
		}
		benchDiscover(b, o)
	})
}

func benchDiscover(b *testing.B, fsys core.FS) {
	checkBench(b, fsys)
	req := []byte(benchRequest)
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		buf = wire.AppendCall(buf[:0], fsys, req)
	}
}

// BenchmarkSyscallFloor is the least any engine must do on disk for the
// same workspace: list each root, then read and resolve each SKILL.md
// (os.ReadDir, os.ReadFile, filepath.EvalSymlinks), and nothing else.
// BenchmarkDiscover/osfs divided by this is the engine's overhead.
func BenchmarkSyscallFloor(b *testing.B) {
	entries, roots := benchTree()
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
	if files < benchCount {
		b.Fatalf("floor read %d SKILL.md files, want at least %d", files, benchCount)
	}
}
