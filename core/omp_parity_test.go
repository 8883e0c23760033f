package core_test

import (
	"context"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/internal/corpus"
)

// ompParityAnswer is what oh-my-pi 18.2.3 loads from the tree of
// testdata/conformance/s62-omp-parity.txtar (a skill in every folder its
// skill providers read): loadSkills under Bun, with the other agents' user
// folders opted in, as js/bench/omp-parity.mjs --json prints it (its
// provider "omp-managed" written as skilldex's "managed"). skilldex must
// load the same skills, from the same files, under the same sources (S62,
// S63).
var ompParityAnswer = []struct{ name, filePath, source string }{
	{"agents-vs-oc", "/home/u/.agents/skills/agents-vs-oc/SKILL.md", "agents:user"},
	{"codex-vs-oc", "/home/u/.codex/skills/codex-vs-oc/SKILL.md", "codex:user"},
	{"everywhere", "/work/repo/sub/.omp/skills/everywhere/SKILL.md", "native:project"},
	{"gh-named", "/work/repo/sub/.github/skills/folder-name/SKILL.md", "github:project"},
	{"gh-vs-managed", "/work/repo/sub/.github/skills/gh-vs-managed/SKILL.md", "github:project"},
	{"oc-no-desc", "/work/repo/sub/.opencode/skills/oc-no-desc/SKILL.md", "opencode:project"},
	{"oc-user-vs-proj", "/home/u/.config/opencode/skills/oc-user-vs-proj/SKILL.md", "opencode:user"},
	{"oc-vs-gh", "/work/repo/sub/.opencode/skills/oc-vs-gh/SKILL.md", "opencode:project"},
	{"own-agent-proj-cwd", "/work/repo/sub/.agent/skills/own-agent-proj-cwd/SKILL.md", "agents:project"},
	{"own-agent-user", "/home/u/.agent/skills/own-agent-user/SKILL.md", "agents:user"},
	{"own-agents-proj-cwd", "/work/repo/sub/.agents/skills/own-agents-proj-cwd/SKILL.md", "agents:project"},
	{"own-agents-proj-repo", "/work/repo/.agents/skills/own-agents-proj-repo/SKILL.md", "agents:project"},
	{"own-agents-user", "/home/u/.agents/skills/own-agents-user/SKILL.md", "agents:user"},
	{"own-claude-proj-cwd", "/work/repo/sub/.claude/skills/own-claude-proj-cwd/SKILL.md", "claude:project"},
	{"own-claude-proj-repo", "/work/repo/.claude/skills/own-claude-proj-repo/SKILL.md", "claude:project"},
	{"own-claude-user", "/home/u/.claude/skills/own-claude-user/SKILL.md", "claude:user"},
	{"own-codex-proj", "/work/repo/sub/.codex/skills/own-codex-proj/SKILL.md", "codex:project"},
	{"own-codex-user", "/home/u/.codex/skills/own-codex-user/SKILL.md", "codex:user"},
	{"own-github-proj", "/work/repo/sub/.github/skills/own-github-proj/SKILL.md", "github:project"},
	{"own-managed", "/home/u/.omp/agent/managed-skills/own-managed/SKILL.md", "managed:user"},
	{"own-native-proj-cwd", "/work/repo/sub/.omp/skills/own-native-proj-cwd/SKILL.md", "native:project"},
	{"own-native-proj-repo", "/work/repo/.omp/skills/own-native-proj-repo/SKILL.md", "native:project"},
	{"own-native-user", "/home/u/.omp/agent/skills/own-native-user/SKILL.md", "native:user"},
	{"own-opencode-proj", "/work/repo/sub/.opencode/skills/own-opencode-proj/SKILL.md", "opencode:project"},
	{"own-opencode-user", "/home/u/.config/opencode/skills/own-opencode-user/SKILL.md", "opencode:user"},
}

func TestOmpParity(t *testing.T) {
	c, err := corpus.LoadFile("../testdata/conformance/s62-omp-parity.txtar")
	if err != nil {
		t.Fatal(err)
	}
	opts := core.DefaultOptions()
	opts.ConfigDirName = ".omp"
	res, err := core.Discover(context.Background(), c.MemFS(), "/work/repo/sub", "/home/u", opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skills) != len(ompParityAnswer) {
		t.Errorf("S62: %d skills, oh-my-pi loads %d", len(res.Skills), len(ompParityAnswer))
	}
	got := map[string]core.Skill{}
	for _, s := range res.Skills {
		got[s.Name] = s
	}
	for _, want := range ompParityAnswer {
		s, ok := got[want.name]
		switch {
		case !ok:
			t.Errorf("S62: oh-my-pi loads %q from %s (%s); skilldex does not", want.name, want.filePath, want.source)
		case s.FilePath != want.filePath || s.Source != want.source:
			t.Errorf("S62: %q from %s (%s); oh-my-pi loads it from %s (%s)", want.name, s.FilePath, s.Source, want.filePath, want.source)
		}
	}
}
