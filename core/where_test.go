package core_test

import (
	"context"
	"errors"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
)

// whereTree: the skill folder /w/repo/.agents/skills/pdf, reached by every
// agent that reads .agents/skills at the repository root (cwd is the
// root), by Claude Code through a link in ~/.claude/skills, and lost by
// GitHub Copilot to another pdf in .github/skills, which it reads first.
func whereTree(t *testing.T) *memfs.FS {
	t.Helper()
	fsys := memfs.New()
	for p, text := range map[string]string{
		"/w/repo/.agents/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: the folder asked about\n---\n",
		"/w/repo/.github/skills/pdf/SKILL.md": "---\ndescription: Copilot's own pdf\n---\n",
		"/w/repo/.goose/skills/pdf/SKILL.md":  "---\ndescription: Goose's own pdf, which .agents/skills beats\n---\n",
	} {
		if err := fsys.WriteFile(p, []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	_ = fsys.Mkdir("/w/repo/.git")
	_ = fsys.Symlink("/w/repo/.agents/skills/pdf", "/home/u/.claude/skills/pdf-link")
	return fsys
}

// TestWhere: S67 on a folder reached by several agents.
func TestWhere(t *testing.T) {
	fsys := whereTree(t)
	res, err := core.Where(context.Background(), fsys, "/w/repo", "/home/u", "/w/repo/.agents/skills/pdf/", core.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if res.Dir != "/w/repo/.agents/skills/pdf" || len(res.Agents) != len(core.Agents()) {
		t.Fatalf("S67: dir %q, %d agents, want every agent of the table", res.Dir, len(res.Agents))
	}
	by := map[string]core.AgentReach{}
	for i, r := range res.Agents {
		if r.Agent != core.Agents()[i].ID || r.DisplayName != core.Agents()[i].DisplayName {
			t.Fatalf("S67: agent %d is %q, want the table's order", i, r.Agent)
		}
		by[r.Agent] = r
	}
	agentsFile := "/w/repo/.agents/skills/pdf/SKILL.md"
	for _, tc := range []struct {
		agent string
		want  core.AgentReach
	}{
		{"codex", core.AgentReach{Loaded: true, Name: "pdf", FilePath: agentsFile, Source: "codex:project"}},
		{"gemini-cli", core.AgentReach{Loaded: true, Name: "pdf", FilePath: agentsFile, Source: "gemini-cli:project"}},
		{"goose", core.AgentReach{Loaded: true, Name: "pdf", FilePath: agentsFile, Source: "goose:project"}},
		// Through the link, under the name its frontmatter gives.
		{"claude-code", core.AgentReach{Loaded: true, Name: "pdf", FilePath: "/home/u/.claude/skills/pdf-link/SKILL.md", Source: "claude-code:user"}},
		// Reached twice (it reads ~/.claude/skills too), and shadowed both
		// times by the skill Copilot reads first; the first way in S15
		// order is reported.
		{"github-copilot", core.AgentReach{Name: "pdf", FilePath: "/home/u/.claude/skills/pdf-link/SKILL.md", Source: "github-copilot:user",
			Reason: core.ReasonName, Winner: "/w/repo/.github/skills/pdf/SKILL.md"}},
		// Not reached: none of its folders holds it.
		{"windsurf", core.AgentReach{}},
		{"kiro-cli", core.AgentReach{}},
	} {
		got := by[tc.agent]
		tc.want.Agent, tc.want.DisplayName = got.Agent, got.DisplayName
		if got != tc.want {
			t.Errorf("S67 %s: %+v, want %+v", tc.agent, got, tc.want)
		}
	}

	// options.agents: only those, in that order; env moves a user folder.
	opts := core.DefaultOptions()
	opts.Agents = []string{"claude-code", "codex", "claude-code"}
	opts.Env = map[string]string{"CLAUDE_CONFIG_DIR": "/elsewhere"}
	res, err = core.Where(context.Background(), fsys, "/w/repo", "/home/u", "/w/repo/.agents/skills/pdf", opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Agents) != 2 || res.Agents[0].Agent != "claude-code" || res.Agents[0].FilePath != "" || !res.Agents[1].Loaded {
		t.Errorf("S67 with agents and env: %+v", res.Agents)
	}
}

// TestWhereErrors: S67's arguments.
func TestWhereErrors(t *testing.T) {
	fsys := whereTree(t)
	for _, tc := range []struct{ cwd, dir, code string }{
		{"/w/repo", "w/repo/.agents/skills/pdf", core.CodeInvalidArgument},
		{"rel", "/w/repo/.agents/skills/pdf", core.CodeInvalidArgument},
		{"/w/repo", "/w/repo/.agents/skills", core.CodeNotFound}, // a skills root, not a skill folder
		{"/w/repo", "/w/repo/missing", core.CodeNotFound},
	} {
		_, err := core.Where(context.Background(), fsys, tc.cwd, "/home/u", tc.dir, core.DefaultOptions())
		var e *core.Error
		if !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("S67 where(%q, cwd %q): %v, want %s", tc.dir, tc.cwd, err, tc.code)
		}
	}
}
