// Package benchws generates the workspace the Go benchmarks measure (core's
// BenchmarkDiscover, BenchmarkSyscallFloor) and the build's compilation
// hints replay (internal/wasmhints): 1000 skills over every provider's
// roots, generated the same every time (a fixed PCG seed). js/bench's
// workspace.mjs makes one like it for the JS benchmarks.
package benchws

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The workspace: 1000 skills spread over the roots of every
// provider (user and project levels, an ancestor of cwd, two plugins and a
// custom directory), with SKILL.md files shaped as published ones are
// (SkillFile: their frontmatter shapes, description and body sizes at the
// rates of docs/bench/WORKSPACE.md, 1.5% of them invalid YAML), a few
// symlinked skill folders and a few names found in more than one root.
const (
	Home  = "/home/u"
	Cwd   = "/work/repo/pkg"
	Count = 1000
)

// weightedRoots are the roots the skills are spread over, with a weight each.
var weightedRoots = []struct {
	dir    string
	weight int
}{
	{Home + "/.xcsh/agent/skills", 15},
	{Home + "/.claude/skills", 20},
	{Home + "/.agents/skills", 8},
	{Home + "/.agent/skills", 2},
	{Home + "/.codex/skills", 5},
	{"/work/repo/pkg/.xcsh/skills", 10},
	{"/work/repo/pkg/.claude/skills", 8},
	{"/work/repo/.claude/skills", 6},
	{"/work/repo/.agents/skills", 6},
	{"/work/repo/pkg/.codex/skills", 3},
	{"/plugins/kit/skills", 6},
	{"/plugins/docs/skills", 4},
	{"/opt/team-skills", 7},
}

const registry = `{"version": 2, "plugins": {
  "kit@market": [{"scope": "user", "installPath": "/plugins/kit", "version": "1.2.0"}],
  "docs@market": [{"scope": "project", "installPath": "/plugins/docs", "projectPath": "/work/repo"}]
}}
`

// Request is the discover request over the workspace (wasm/ABI.md#requests-and-replies).
const Request = `{"op":"discover","cwd":"` + Cwd + `","home":"` + Home +
	`","options":{"customDirectories":["/opt/team-skills"]}}`

// Entry is one file or symlink of the generated tree.
type Entry struct {
	Path   string
	Data   []byte // nil for a symlink
	Target string
}

// Tree generates the workspace, the same every time: its files and
// symlinks, and the skills roots they are spread over.
func Tree() (entries []Entry, roots []string) {
	rng := rand.New(rand.NewPCG(1, 2))
	entries = append(entries,
		Entry{Path: "/work/repo/.git/HEAD", Data: []byte("ref: refs/heads/main\n")},
		Entry{Path: Home + "/.claude/plugins/installed_plugins.json", Data: []byte(registry)},
	)
	total := 0
	for _, r := range weightedRoots {
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
	for ri, r := range weightedRoots {
		count := Count * r.weight / total
		if ri == len(weightedRoots)-1 {
			count = Count - n // the remainder, so the total is exact
		}
		for i := 0; i < count; i++ {
			name := fmt.Sprintf("skill-%03d-%s", n, words[rng.IntN(len(words))])
			if n%97 == 0 && n > 0 {
				name = fmt.Sprintf("shared-%d", n%5) // a name found in several roots
			}
			data := SkillFile(n, name)
			n++
			dir := r.dir + "/" + name
			if n%150 == 0 {
				// A symlinked skill folder pointing into a shared store.
				store := "/shared/store/" + name
				entries = append(entries, Entry{Path: store + "/SKILL.md", Data: data})
				entries = append(entries, Entry{Path: dir, Target: store})
				continue
			}
			entries = append(entries, Entry{Path: dir + "/SKILL.md", Data: data})
			if n%8 == 0 {
				entries = append(entries, Entry{Path: dir + "/reference.md", Data: []byte(sentence(40) + "\n")})
			}
		}
	}
	// A few links to skills of another root: the same file reached twice.
	for i := 1; i <= 5; i++ {
		entries = append(entries, Entry{
			Path:   fmt.Sprintf("%s/.agents/skills/linked-%d", Home, i),
			Target: "../../.claude/skills/" + skillName(entries, Home+"/.claude/skills/", i),
		})
	}
	return entries, roots
}

// skillName returns the folder name of the i-th skill under root.
func skillName(entries []Entry, root string, i int) string {
	for _, e := range entries {
		if rest, ok := strings.CutPrefix(e.Path, root); ok && e.Data != nil && strings.HasSuffix(rest, "/SKILL.md") {
			if i--; i == 0 {
				return strings.TrimSuffix(rest, "/SKILL.md")
			}
		}
	}
	panic("no such skill")
}

// Builder is where Write puts the workspace: memfs.FS, or
// fsadaptertest.OSBuilder for a directory on disk.
type Builder interface {
	WriteFile(path string, data []byte) error
	Symlink(target, path string) error
}

// Write writes entries with b.
func Write(b Builder, entries []Entry) error {
	for _, e := range entries {
		var err error
		if e.Data == nil {
			err = b.Symlink(e.Target, e.Path)
		} else {
			err = b.WriteFile(e.Path, e.Data)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
