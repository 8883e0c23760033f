package wire_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wire"
)

// hostileGlobs are S55 patterns that made gobwas' backtracking matcher run
// for seconds, exhaust memory (a Go host died with "fatal error: out of
// memory", which no recover catches) or double per repetition, and
// patterns up to the frontmatter's limit (S57).
func hostileGlobs() []string {
	return []string{
		"*?*?*?*?*?*?*?*?*?#*",
		"*a*a*a*a*a*ac*",
		"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*ac*",
		strings.Repeat("{a,a}", 40) + "{b,c}",
		strings.Repeat("*a", core.MaxGlobBytes/2-1) + "c*", // at the bound
		strings.Repeat("*a", 30<<10) + "c*",                // 60 KiB
	}
}

// TestMatchHostileGlobs: native Go (wire.Call over memfs) survives and
// answers a match of the hostile patterns against 4 KiB paths (S57). The
// call runs in a child process with a deadline: before S57 it ran for
// minutes, or the child died of out-of-memory, and either fails the test
// instead of the test binary.
func TestMatchHostileGlobs(t *testing.T) {
	if os.Getenv("SKILLDEX_HOSTILE_GLOB_CHILD") == "1" {
		matchHostileGlobs(t)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestMatchHostileGlobs$", "-test.v")
	cmd.Env = append(os.Environ(), "SKILLDEX_HOSTILE_GLOB_CHILD=1")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the match did not return within 60 s (S57)\n%.2000s", out)
	}
	if err != nil {
		t.Fatalf("the child failed: %v\n%.4000s", err, out)
	}
}

func matchHostileGlobs(t *testing.T) {
	m := memfs.New()
	pats := hostileGlobs()
	var fm strings.Builder
	fm.WriteString("---\nname: a\ndescription: d\nglobs:\n")
	for _, p := range pats {
		fm.WriteString("  - " + strconv.Quote(p) + "\n")
	}
	fm.WriteString("---\n")
	if err := m.WriteFile("/home/u/.claude/skills/a/SKILL.md", []byte(fm.String())); err != nil {
		t.Fatal(err)
	}
	paths := []string{
		"src-components-button.test.js",
		strings.Repeat("a", 250),
		strings.Repeat("a", 4096),
		strings.Repeat("a/", 2047) + "a",
	}
	req, _ := json.Marshal(map[string]any{"op": "match", "cwd": "/work", "home": "/home/u", "paths": paths})
	start := time.Now()
	reply := wire.Call(m, req)
	elapsed := time.Since(start)
	var r struct {
		Skills   []struct{ Name string }
		Warnings []struct{ Message string }
		Error    *struct{ Message string }
	}
	if err := json.Unmarshal(reply, &r); err != nil || r.Error != nil {
		t.Fatalf("reply %.500s: %v", reply, err)
	}
	if len(r.Skills) != 0 {
		t.Errorf("skills %+v: none of the patterns matches", r.Skills)
	}
	// The 60 KiB pattern is over the bound: one glob-too-complex warning.
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Message, "glob-too-complex") {
		t.Errorf("warnings %+v: want one glob-too-complex", r.Warnings)
	}
	t.Logf("match of %d patterns against %d paths: %v", len(pats), len(paths), elapsed)
}
