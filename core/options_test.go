package core_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
)

// TestOptions_zeroValueIsDefault (S81): the zero Options discover as
// DefaultOptions (SPEC section 5, S22, S23), and each Disable switch drops
// its own source and nothing else.
func TestOptions_zeroValueIsDefault(t *testing.T) {
	const home, cwd = "/home/u", "/home/u/proj"
	m := memfs.New()
	skill := func(dir, name string) {
		must(t, m.WriteFile(dir+"/"+name+"/SKILL.md", []byte("---\nname: "+name+"\ndescription: d\n---\nbody\n")))
	}
	skill(home+"/.codex/skills", "codex-user")
	skill(home+"/.claude/skills", "claude-user")
	skill(cwd+"/.claude/skills", "claude-project")
	skill(home+"/.xcsh/agent/skills", "pi-user")
	skill(cwd+"/.xcsh/skills", "pi-project")
	names := func(o core.Options) []string {
		res, err := core.Discover(context.Background(), m, cwd, home, o)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, s := range res.Skills {
			out = append(out, s.Name)
		}
		return out
	}
	all := []string{"claude-project", "claude-user", "codex-user", "pi-project", "pi-user"}
	if got := names(core.DefaultOptions()); !reflect.DeepEqual(got, all) {
		t.Fatalf("DefaultOptions: %q, want %q", got, all)
	}
	for _, tc := range []struct {
		name string
		opts core.Options
		want []string
	}{
		{"zero", core.Options{}, all},
		{"Disabled", core.Options{Disabled: true}, []string{}},
		{"DisableCodexUser", core.Options{DisableCodexUser: true}, []string{"claude-project", "claude-user", "pi-project", "pi-user"}},
		{"DisableClaudeUser", core.Options{DisableClaudeUser: true}, []string{"claude-project", "codex-user", "pi-project", "pi-user"}},
		{"DisableClaudeProject", core.Options{DisableClaudeProject: true}, []string{"claude-user", "codex-user", "pi-project", "pi-user"}},
		{"DisablePiUser", core.Options{DisablePiUser: true}, []string{"claude-project", "claude-user", "codex-user", "pi-project"}},
		{"DisablePiProject", core.Options{DisablePiProject: true}, []string{"claude-project", "claude-user", "codex-user", "pi-user"}},
		{"ConfigDirName", core.Options{ConfigDirName: ".other"}, []string{"claude-project", "claude-user", "codex-user"}},
	} {
		if got := names(tc.opts); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
