package core_test

import (
	"errors"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/wire"
)

// TestExplain builds an S41 explanation from a hand-made S27 result.
func TestExplain(t *testing.T) {
	t.Parallel()
	res := &core.Result{
		Skills: []core.Skill{
			{Name: "pdf", FilePath: "/p/.xcsh/skills/pdf/SKILL.md", Source: "native:project"},
			{Name: "docx", FilePath: "/h/.claude/skills/docx/SKILL.md", Source: "claude:user"},
		},
		Shadowed: []core.Shadowed{
			{Name: "docx", FilePath: "/x/SKILL.md", Source: "custom:user", Reason: core.ReasonIgnored},
			{Name: "pdf", FilePath: "/h/.agents/skills/pdf/SKILL.md", Source: "agents:user", Reason: core.ReasonRealpath, Winner: "/p/.xcsh/skills/pdf/SKILL.md"},
			{Name: "pdf", FilePath: "/h/.claude/skills/pdf/SKILL.md", Source: "claude:user", Reason: core.ReasonName, Winner: "/p/.xcsh/skills/pdf/SKILL.md"},
			{Name: "pdf", FilePath: "/h/.codex/skills/pdf/SKILL.md", Source: "codex:user", Reason: core.ReasonSourceOff},
			{Name: "pdf", FilePath: "/y/SKILL.md", Source: "agents:project", Reason: core.ReasonSourceOff},
			{Name: "pdf", FilePath: "/z/SKILL.md", Source: "claude:project", Reason: core.ReasonDisabled},
			{Name: "pdf", FilePath: "/zz/SKILL.md", Source: "claude:project", Reason: core.ReasonNotIncluded},
		},
	}
	e, err := core.Explain("pdf", res)
	if err != nil {
		t.Fatal(err)
	}
	if e.Winner == nil || e.Winner.FilePath != "/p/.xcsh/skills/pdf/SKILL.md" {
		t.Fatalf("winner %+v", e.Winner)
	}
	want := []core.Candidate{
		{FilePath: "/p/.xcsh/skills/pdf/SKILL.md", Source: "native:project", Outcome: "loaded"},
		{FilePath: "/h/.agents/skills/pdf/SKILL.md", Source: "agents:user", Outcome: "duplicate",
			Reason: "the same file (same realpath) was already loaded as /p/.xcsh/skills/pdf/SKILL.md (native:project)"},
		{FilePath: "/h/.claude/skills/pdf/SKILL.md", Source: "claude:user", Outcome: "shadowed",
			Reason: `the name "pdf" was already taken by /p/.xcsh/skills/pdf/SKILL.md (native:project), which comes first: xcsh is searched before Claude Code (providers in priority order)`},
		{FilePath: "/h/.codex/skills/pdf/SKILL.md", Source: "codex:user", Outcome: "source-off",
			Reason: "the source codex:user is turned off by enableCodexUser: false"},
		{FilePath: "/y/SKILL.md", Source: "agents:project", Outcome: "source-off",
			Reason: "the source agents:project is turned off by the source toggles (all five enable* options are false)"},
		{FilePath: "/z/SKILL.md", Source: "claude:project", Outcome: "disabled", Reason: `disabledExtensions holds "skill:pdf"`},
		{FilePath: "/zz/SKILL.md", Source: "claude:project", Outcome: "not-included",
			Reason: "includeSkills is set and the name matches none of its patterns"},
	}
	if len(e.Candidates) != len(want) {
		t.Fatalf("candidates %+v", e.Candidates)
	}
	for i := range want {
		if e.Candidates[i] != want[i] {
			t.Errorf("candidate %d:\n got %+v\nwant %+v", i, e.Candidates[i], want[i])
		}
	}

	// A name with no loaded copy: winner null, the filtered copy listed.
	e, err = core.Explain("docx", &core.Result{Shadowed: res.Shadowed[:1]})
	if err != nil {
		t.Fatal(err)
	}
	got := string(wire.AppendJSON(nil, e))
	wantJSON := `{"name":"docx","winner":null,"candidates":[{"filePath":"/x/SKILL.md","source":"custom:user","outcome":"ignored","reason":"the name matches a pattern of ignoredSkills"}]}`
	if got != wantJSON {
		t.Errorf("JSON\n got %s\nwant %s", got, wantJSON)
	}

	for _, tc := range []struct{ name, code, msg string }{
		{"", core.CodeMissingName, "explain requires a skill name"},
		{"xlsx", core.CodeUnknownSkill, "Unknown skill: xlsx\nAvailable: docx, pdf"},
	} {
		_, err := core.Explain(tc.name, res)
		var ce *core.Error
		if !errors.As(err, &ce) || ce.Code != tc.code || ce.Message != tc.msg {
			t.Errorf("Explain(%q) = %v, want %s %q", tc.name, err, tc.code, tc.msg)
		}
	}
}
