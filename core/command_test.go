package core_test

import (
	"context"
	"errors"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wire"
)

func commandTree(t *testing.T) (*memfs.FS, []core.Skill) {
	t.Helper()
	fsys := memfs.New()
	for p, data := range map[string]string{
		"/s/pdf/SKILL.md":  "---\nname: pdf\ndescription: PDFs\n---\n\n# PDF\n\nDo it.\n\n",
		"/s/win/SKILL.md":  "\xef\xbb\xbf---\r\nname: win\r\n---\r\nLine 1.\r\nLine 2.\r\n",
		"/s/bare/SKILL.md": "  just text  \n",
		"/s/fm/SKILL.md":   "---\nname: fm\n---\n",
	} {
		if err := fsys.WriteFile(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	skills := []core.Skill{
		{Name: "pdf", Description: "PDFs", FilePath: "/s/pdf/SKILL.md"},
		{Name: "win", FilePath: "/s/win/SKILL.md"},
		{Name: "plug:bare", Description: "bare", FilePath: "/s/bare/SKILL.md"},
		{Name: "fm", FilePath: "/s/fm/SKILL.md"},
		{Name: "gone", FilePath: "/s/gone/SKILL.md"},
	}
	return fsys, skills
}

// TestExpandCommand covers S35 (what is a command) and S36 (the message).
func TestExpandCommand(t *testing.T) {
	t.Parallel()
	fsys, skills := commandTree(t)
	tests := []struct {
		name, text string
		enable     bool
		want       *core.Expansion
	}{
		{"S36 no args", "/skill:pdf", true, &core.Expansion{Message: "# PDF\n\nDo it.\n\n---\n\nSkill: /s/pdf/SKILL.md", Name: "pdf", Path: "/s/pdf/SKILL.md"}},
		{"S36 args trimmed", "  /skill:pdf   a  b \n", true, &core.Expansion{Message: "# PDF\n\nDo it.\n\n---\n\nSkill: /s/pdf/SKILL.md\nUser: a  b", Name: "pdf", Path: "/s/pdf/SKILL.md", Args: "a  b"}},
		{"S35 name ends at newline", "/skill:pdf\nmore\n\tlines", true, &core.Expansion{Message: "# PDF\n\nDo it.\n\n---\n\nSkill: /s/pdf/SKILL.md\nUser: more\n\tlines", Name: "pdf", Path: "/s/pdf/SKILL.md", Args: "more\n\tlines"}},
		{"S36 CRLF and BOM", "/skill:win", true, &core.Expansion{Message: "Line 1.\nLine 2.\n\n---\n\nSkill: /s/win/SKILL.md", Name: "win", Path: "/s/win/SKILL.md"}},
		{"S36 no frontmatter, colon name", "/skill:plug:bare x", true, &core.Expansion{Message: "just text\n\n---\n\nSkill: /s/bare/SKILL.md\nUser: x", Name: "plug:bare", Path: "/s/bare/SKILL.md", Args: "x"}},
		{"S36 empty body", "/skill:fm", true, &core.Expansion{Message: "\n\n---\n\nSkill: /s/fm/SKILL.md", Name: "fm", Path: "/s/fm/SKILL.md"}},
		{"S35 disabled", "/skill:pdf", false, nil},
		{"S35 disabled, unknown name", "/skill:xlsx", false, nil},
		{"S35 not a command", "hello /skill:pdf", true, nil},
		{"S35 case-sensitive prefix", "/SKILL:pdf", true, nil},
		{"S35 empty text", "", true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := core.ExpandCommand(context.Background(), fsys, tc.text, skills, tc.enable)
			if err != nil {
				t.Fatal(err)
			}
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("ExpandCommand(%q) =\n%+v\nwant\n%+v", tc.text, got, tc.want)
			}
		})
	}
}

// TestExpandCommand_unknown: S75. A command that names no skill is an
// error, not null: S50's unknown-skill message with "Did you mean" among
// the skills a user can invoke (S47), or MISSING_NAME without a name.
func TestExpandCommand_unknown(t *testing.T) {
	t.Parallel()
	fsys, skills := commandTree(t)
	skills = append(skills, core.Skill{Name: "pdf-hidden", FilePath: "/s/pdf/SKILL.md", DisableUserInvocation: true})
	const available = "\nAvailable: fm, gone, pdf, plug:bare, win" // not pdf-hidden (S47)
	for _, tc := range []struct{ text, code, msg string }{
		{"/skill:xlsx do it", core.CodeUnknownSkill, "Unknown skill: xlsx" + available},
		{"/skill:PDF", core.CodeUnknownSkill, "Unknown skill: PDF\nDid you mean: pdf" + available},
		{"/skill:pdff\nmore", core.CodeUnknownSkill, "Unknown skill: pdff\nDid you mean: pdf" + available},
		{"/skill:bare", core.CodeUnknownSkill, "Unknown skill: bare\nDid you mean: plug:bare" + available},
		{"/skill:pdf-hiden", core.CodeUnknownSkill, "Unknown skill: pdf-hiden" + available},
		{"/skill:", core.CodeMissingName, "/skill: requires a skill name: /skill:<name>"},
		{"/skill: pdf", core.CodeMissingName, "/skill: requires a skill name: /skill:<name>"},
	} {
		got, err := core.ExpandCommand(context.Background(), fsys, tc.text, skills, true)
		var e *core.Error
		if got != nil || !errors.As(err, &e) || e.Code != tc.code || e.Message != tc.msg {
			t.Errorf("ExpandCommand(%q) = %+v, %v; want %s %q", tc.text, got, err, tc.code, tc.msg)
		}
	}
}

func TestExpandCommand_unreadable(t *testing.T) {
	t.Parallel()
	fsys, skills := commandTree(t)
	_, err := core.ExpandCommand(context.Background(), fsys, "/skill:gone", skills, true)
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.CodeNotFound || e.Message != "Failed to read skill file: /s/gone/SKILL.md (ENOENT)" {
		t.Errorf("got %v", err)
	}
}

func TestExpansion_AppendJSON(t *testing.T) {
	t.Parallel()
	var none *core.Expansion
	if got := string(wire.AppendJSON([]byte("x"), none)); got != "xnull" {
		t.Errorf("nil: %s", got)
	}
	e := &core.Expansion{Message: "m\n", Name: "n", Path: "/p", Args: ""}
	if got := string(wire.AppendJSON(nil, e)); got != `{"message":"m\n","name":"n","path":"/p","args":""}` {
		t.Errorf("got %s", got)
	}
}

// TestCommands covers S37: one entry per skill, S15 order.
func TestCommands(t *testing.T) {
	t.Parallel()
	l := core.Commands([]core.Skill{
		{Name: "b", Description: "B", FilePath: "/b/SKILL.md"},
		{Name: "a", Description: "A \"q\"", FilePath: "/a/SKILL.md"},
		{Name: "B", Description: "upper", FilePath: "/B/SKILL.md"},
	})
	got := string(wire.AppendJSON(nil, l))
	want := `{"commands":[{"name":"skill:a","description":"A \"q\"","path":"/a/SKILL.md"},` +
		`{"name":"skill:B","description":"upper","path":"/B/SKILL.md"},{"name":"skill:b","description":"B","path":"/b/SKILL.md"}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := string(wire.AppendJSON(nil, core.Commands(nil))); got != `{"commands":[]}` {
		t.Errorf("empty: %s", got)
	}
}
