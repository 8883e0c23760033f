package runtimetest

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wasm/abi/abitest"
	"github.com/skilldex/skilldex/wasmhost"
)

// runtimeCalls counts the calls of the Go runtime's functions named in n,
// by name (the module's name section): gcStart, the start of a cycle of
// its paced collector, and stopTheWorldWithSema, which ReadMemStats runs.
type runtimeCalls struct{ n map[string]int }

func (c *runtimeCalls) NewFunctionListener(def api.FunctionDefinition) experimental.FunctionListener {
	name := def.Name()
	if _, ok := c.n[name]; !ok {
		return nil
	}
	return experimental.FunctionListenerFunc(func(context.Context, api.Module, api.FunctionDefinition, []uint64, experimental.StackIterator) {
		c.n[name]++
	})
}

// A fresh instance's first discovery of a thousand skills runs no cycle
// of the runtime's paced collector (wasm/gc.go largeCall): in
// a reactor such a cycle does not finish within the call, and in V8 it
// made the one-shot discovery compile the collector and the scheduler
// (146 KB of code) and run with write barriers on. Nor does it stop the
// world to read how much it allocated (wasm/gc.go firstReadGate): it
// cannot have allocated enough for a collection of its own, and V8
// compiled about 40 KB of runtime code to learn that four times. The
// module's own collection after a large call still runs, at the start of
// the next one.
//
// The module is the raw build, whose name section names the functions;
// its _initialize ends in the state the shipped snapshot holds.
func TestCollector_firstDiscovery(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module again")
	}
	ctx := context.Background()
	raw := filepath.Join(t.TempDir(), "skilldex.raw.wasm")
	if err := abitest.BuildRaw(root, raw); err != nil {
		t.Fatal(err)
	}
	wasm, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	calls := &runtimeCalls{n: map[string]int{"runtime.gcStart": 0, "runtime.stopTheWorldWithSema": 0}}
	mod, err := wasmhost.Compile(experimental.WithFunctionListenerFactory(ctx, calls), wasm)
	if err != nil {
		t.Fatal(err)
	}
	defer mod.Close(ctx)

	tree := thousandSkills(t)
	e, err := mod.Instantiate(ctx, tree)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	req := []byte(`{"op":"discover","cwd":"/work/repo","home":"/home/u"}`)
	before := maps.Clone(calls.n)
	reply, err := e.Call(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(reply), `"sourcePath":`); n != 1000 {
		t.Fatalf("the first discovery found %d skills, want 1000: %.300s", n, reply)
	}
	if n := calls.n["runtime.gcStart"] - before["runtime.gcStart"]; n != 0 {
		t.Errorf("the first discovery of 1000 skills started %d collector cycles, want none", n)
	}
	if n := calls.n["runtime.stopTheWorldWithSema"] - before["runtime.stopTheWorldWithSema"]; n != 0 {
		t.Errorf("the first discovery of 1000 skills stopped the world %d times, want none", n)
	}
	// The second call begins with the module's own collection of the
	// first one's garbage (collectBefore), a complete one.
	if _, err := e.Call(ctx, req); err != nil {
		t.Fatal(err)
	}
	if calls.n["runtime.gcStart"] == before["runtime.gcStart"] {
		t.Errorf("the call after a 1000-skill discovery collected nothing")
	}
}

// thousandSkills is a user's skills folder of 1000 skills whose
// frontmatter has what published skills carry (lists, a metadata map, a
// folded description) and whose instructions run to about 4 KB, as the
// benchmark's do (4.7 MB for 1000).
func thousandSkills(t *testing.T) *memfs.FS {
	t.Helper()
	m := memfs.New()
	steps := strings.Repeat("1. Read the files the change touches and the tests that cover them; note what each does.\n", 45)
	for i := range 1000 {
		body := fmt.Sprintf("---\nname: skill-%04d\ndescription: >-\n  Helps with task %d: reads the project's files, the tests and the\n  changelog, writes a summary of what changed and why, checks it against\n  the release notes and the open issues, and asks before it commits.\n  Use it when a release is near or a reviewer asks what a branch does.\nallowed-tools: [Read, Grep, Glob, \"Bash(git log:*)\", \"Bash(git diff:*)\"]\nlicense: MIT\nmetadata:\n  version: \"1.%d\"\n  author: the docs team\n  tags: [docs, review, release]\n---\n# Skill %d\n\n## Steps\n\n%s", i, i, i%7, i, steps)
		if err := m.WriteFile(fmt.Sprintf("/home/u/.claude/skills/skill-%04d/SKILL.md", i), []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	return m
}
