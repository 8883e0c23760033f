package wire

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/skilldex/skilldex/core"
)

// TestDigest: S54. The digest is the first 16 hex digits of the SHA-256 of
// the reply without it, Digest gives the reply's, and any change in skills,
// warnings or shadowed changes it.
func TestDigest(t *testing.T) {
	t.Parallel()
	yes := true
	base := func() *core.Result {
		return &core.Result{
			Skills: []core.Skill{{Name: "a", Description: "d", FilePath: "/p/a/SKILL.md", Frontmatter: &core.Map{}, Globs: []string{"*.ts"}}},
			Warnings: []core.Warning{{SkillPath: "/p/b/SKILL.md", Diagnostic: core.Diagnostic{Path: "/p/b/SKILL.md", Line: 2,
				Code: core.DiagInvalidYAML, Severity: core.SeverityWarning, Message: "bad; fix it", Fix: "fix it"}}},
			Shadowed: []core.Shadowed{{Name: "a", FilePath: "/q/a/SKILL.md", Source: "claude:user", Reason: "name", Winner: "/p/a/SKILL.md"}},
		}
	}
	variants := map[string]func(r *core.Result){
		"description":  func(r *core.Result) { r.Skills[0].Description = "e" },
		"alwaysApply":  func(r *core.Result) { r.Skills[0].AlwaysApply = &yes },
		"globs":        func(r *core.Result) { r.Skills[0].Globs = nil },
		"no skills":    func(r *core.Result) { r.Skills = nil },
		"warning":      func(r *core.Result) { r.Warnings[0].Message = "worse" },
		"warning line": func(r *core.Result) { r.Warnings[0].Line = 3 }, // S73: the fields count too
		"warning fix":  func(r *core.Result) { r.Warnings[0].Fix = "" },
		"no warnings":  func(r *core.Result) { r.Warnings = nil },
		"shadow":       func(r *core.Result) { r.Shadowed[0].Reason = "realpath" },
		"no shadowed":  func(r *core.Result) { r.Shadowed = nil },
		"winner":       func(r *core.Result) { r.Shadowed[0].Winner = "" },
		"skill's path": func(r *core.Result) { r.Skills[0].FilePath = "/p/a2/SKILL.md" },
	}
	reply := AppendJSON(nil, base())
	i := bytes.LastIndex(reply, []byte(`,"digest":"`))
	if i < 0 || !bytes.HasSuffix(reply, []byte(`"}`)) {
		t.Fatalf("no digest at the end of %s", reply)
	}
	without := append(bytes.Clone(reply[:i]), '}')
	sum := sha256.Sum256(without)
	want := hex.EncodeToString(sum[:8])
	if got := string(reply[i+len(`,"digest":"`) : len(reply)-2]); got != want {
		t.Fatalf("digest %s, want %s (SHA-256 of %s)", got, want, without)
	}
	if got := Digest(base()); got != want {
		t.Errorf("Digest = %s, want the reply's %s", got, want)
	}
	seen := map[string]string{want: "base"}
	for name, change := range variants {
		r := base()
		change(r)
		d := Digest(r)
		if other, dup := seen[d]; dup {
			t.Errorf("%s: the same digest as %s", name, other)
		}
		seen[d] = name
	}
}
