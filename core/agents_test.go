package core_test

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
)

// The load context of the agent tests: cwd below a repository root, home
// elsewhere.
const (
	agentCwd  = "/w/repo/sub"
	agentRepo = "/w/repo"
	agentHome = "/home/u"
)

var envDir = regexp.MustCompile(`^\$\{([A-Z_][A-Z0-9_]*):-([^}]*)\}(.*)$`)

// agentRoot is one skills root of an agent for the test's load context.
type agentRoot struct{ path, level string }

// oracleRoots lists the roots of a for the test's load context with env,
// in the order the agent prefers them, each once: SPEC S64-S66 written out
// (the code under test is not asked).
func oracleRoots(a core.AgentProfile, env map[string]string) []agentRoot {
	var user, project []agentRoot
	seen := map[string]bool{}
	add := func(list *[]agentRoot, p, level string) {
		if !seen[p] {
			seen[p] = true
			*list = append(*list, agentRoot{p, level})
		}
	}
	for _, d := range a.UserDirs {
		if m := envDir.FindStringSubmatch(d); m != nil {
			if v := strings.TrimSpace(env[m[1]]); v != "" {
				if !strings.HasPrefix(v, "/") {
					v = agentCwd + "/" + v
				}
				d = path.Clean(v + m[3])
			} else {
				d = m[2] + m[3]
			}
		}
		if strings.HasPrefix(d, "~/") {
			d = agentHome + d[1:]
		}
		add(&user, path.Clean(d), "user")
	}
	folders := []string{agentCwd, agentRepo}
	if a.ProjectWalk == core.WalkCwd {
		folders = folders[:1]
	}
	for _, f := range folders {
		for _, d := range a.ProjectDirs {
			add(&project, f+"/"+d, "project")
		}
	}
	if a.UserFirst {
		return append(user, project...)
	}
	return append(project, user...)
}

// TestAgentTable checks the rows of S64's table: at least 30 agents,
// sorted by unique id, each with a name, folders in the forms the table
// allows and a public source.
func TestAgentTable(t *testing.T) {
	table := core.Agents()
	if len(table) < 30 {
		t.Fatalf("S64: %d agents, want at least 30", len(table))
	}
	relDir := regexp.MustCompile(`^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$`)
	for i, a := range table {
		if i > 0 && table[i-1].ID >= a.ID {
			t.Errorf("S64: %q after %q: the table is by id, each once", a.ID, table[i-1].ID)
		}
		if !regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`).MatchString(a.ID) || a.DisplayName == "" {
			t.Errorf("S64: %q: id or display name %q", a.ID, a.DisplayName)
		}
		if a.ProjectWalk != core.WalkCwd && a.ProjectWalk != core.WalkAncestors {
			t.Errorf("S64: %s: projectWalk %q", a.ID, a.ProjectWalk)
		}
		if len(a.ProjectDirs)+len(a.UserDirs) == 0 {
			t.Errorf("S64: %s has no folder", a.ID)
		}
		for _, d := range a.ProjectDirs {
			if !relDir.MatchString(d) || path.Clean(d) != d || strings.Contains("/"+d+"/", "/../") {
				t.Errorf("S64: %s: project folder %q is not a clean relative path", a.ID, d)
			}
		}
		for _, d := range a.UserDirs {
			rest := d
			if m := envDir.FindStringSubmatch(d); m != nil {
				rest = m[2] + m[3]
			} else if strings.Contains(d, "$") {
				t.Errorf("S64: %s: user folder %q: an environment variable is ${NAME:-default}", a.ID, d)
			}
			if !strings.HasPrefix(rest, "~/") && !strings.HasPrefix(rest, "/") || path.Clean(rest) != rest {
				t.Errorf("S64: %s: user folder %q is not ~/..., absolute, or ${VAR:-~/...}", a.ID, d)
			}
		}
		if len(a.Sources) == 0 || !slices.ContainsFunc(a.Sources, func(s string) bool { return strings.HasPrefix(s, "https://") }) {
			t.Errorf("S64: %s cites no public page: %q", a.ID, a.Sources)
		}
	}
	for _, name := range core.AgentEnv() {
		if !regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`).MatchString(name) {
			t.Errorf("S66: environment variable %q", name)
		}
	}
	for _, want := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME", "XDG_CONFIG_HOME"} {
		if !slices.Contains(core.AgentEnv(), want) {
			t.Errorf("S66: %s is not among the table's variables %q", want, core.AgentEnv())
		}
	}
}

// agentWorld is a tree with a skill in every folder of every agent of the
// table (at the cwd and at its parent, under home, under each variable's
// test value), each with a name of its own.
type agentWorld struct {
	fs    *memfs.FS
	files map[string]string // root -> the SKILL.md placed in it
}

// testEnv gives each variable of the table a value of its own.
func testEnv() map[string]string {
	env := map[string]string{}
	for _, name := range core.AgentEnv() {
		env[name] = "/env/" + strings.ToLower(name)
	}
	return env
}

func newAgentWorld(t *testing.T) *agentWorld {
	t.Helper()
	w := &agentWorld{fs: memfs.New(), files: map[string]string{}}
	if err := w.fs.Mkdir(agentRepo + "/.git"); err != nil {
		t.Fatal(err)
	}
	for _, a := range core.Agents() {
		every := a
		every.ProjectWalk = core.WalkAncestors // the decoys at the parent too
		for _, env := range []map[string]string{nil, testEnv()} {
			for _, r := range oracleRoots(every, env) {
				if _, ok := w.files[r.path]; ok {
					continue
				}
				file := fmt.Sprintf("%s/k%d/SKILL.md", r.path, len(w.files))
				text := fmt.Sprintf("---\nname: k%d\ndescription: in %s\n---\n", len(w.files), r.path)
				if err := w.fs.WriteFile(file, []byte(text)); err != nil {
					t.Fatal(err)
				}
				w.files[r.path] = file
			}
		}
	}
	return w
}

// TestAgentOptionFindsExactlyItsFolders: for each row, discovery with
// Options.Agents = [id] loads the skill of each of its folders and nothing
// else (S65), with and without the environment variables set (S66).
func TestAgentOptionFindsExactlyItsFolders(t *testing.T) {
	w := newAgentWorld(t)
	for _, a := range core.Agents() {
		for _, env := range []map[string]string{nil, testEnv()} {
			name := a.ID
			if env != nil {
				if len(a.EnvNames()) == 0 {
					continue
				}
				name += "/env"
			}
			t.Run(name, func(t *testing.T) {
				opts := core.DefaultOptions()
				opts.Agents, opts.Env = []string{a.ID}, env
				res, err := core.Discover(context.Background(), w.fs, agentCwd, agentHome, opts)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]string{} // file -> source
				for _, r := range oracleRoots(a, env) {
					want[w.files[r.path]] = a.ID + ":" + r.level
				}
				got := map[string]string{}
				for _, s := range res.Skills {
					got[s.FilePath] = s.Source
					if s.Provider != a.ID || s.ProviderName != a.DisplayName {
						t.Errorf("S65: %s: provider %q %q", s.FilePath, s.Provider, s.ProviderName)
					}
				}
				for file, source := range want {
					if got[file] != source {
						t.Errorf("S65: %s not loaded from %s (got %q)", source, file, got[file])
					}
				}
				for file := range got {
					if _, ok := want[file]; !ok {
						t.Errorf("S65: %s loaded from %s, which is not one of its folders", a.ID, file)
					}
				}
				if len(res.Shadowed)+len(res.Warnings) > 0 {
					t.Errorf("S65: shadowed %v, warnings %v", res.Shadowed, res.Warnings)
				}
			})
		}
	}
}

// TestAgentPrecedence: for each row, one name in every folder of the
// agent: the folder it prefers wins, the others lose the name to it (S65).
func TestAgentPrecedence(t *testing.T) {
	for _, a := range core.Agents() {
		t.Run(a.ID, func(t *testing.T) {
			fsys := memfs.New()
			_ = fsys.Mkdir(agentRepo + "/.git")
			roots := oracleRoots(a, nil)
			for _, r := range roots {
				_ = fsys.WriteFile(r.path+"/same/SKILL.md", []byte("---\ndescription: in "+r.path+"\n---\n"))
			}
			opts := core.DefaultOptions()
			opts.Agents = []string{a.ID}
			res, err := core.Discover(context.Background(), fsys, agentCwd, agentHome, opts)
			if err != nil {
				t.Fatal(err)
			}
			first := roots[0].path + "/same/SKILL.md"
			if len(res.Skills) != 1 || res.Skills[0].FilePath != first {
				t.Fatalf("S65: want only %s, got %+v", first, res.Skills)
			}
			if len(res.Shadowed) != len(roots)-1 {
				t.Fatalf("S65: %d shadowed, want %d", len(res.Shadowed), len(roots)-1)
			}
			for _, sh := range res.Shadowed {
				if sh.Reason != core.ReasonName || sh.Winner != first {
					t.Errorf("S65: %s: %s, winner %s; want name, %s", sh.FilePath, sh.Reason, sh.Winner, first)
				}
			}
		})
	}
}

// TestAgentsOrder: with several agents, the first listed wins a name, an
// id given twice counts once, and each agent's skills carry its source
// (S65).
func TestAgentsOrder(t *testing.T) {
	fsys := memfs.New()
	_ = fsys.Mkdir(agentRepo + "/.git")
	_ = fsys.WriteFile(agentHome+"/.claude/skills/pdf/SKILL.md", []byte("---\ndescription: claude\n---\n"))
	_ = fsys.WriteFile(agentCwd+"/.gemini/skills/pdf/SKILL.md", []byte("---\ndescription: gemini\n---\n"))
	for _, tc := range []struct {
		agents []string
		winner string
	}{
		{[]string{"claude-code", "gemini-cli"}, "claude-code:user"},
		{[]string{"gemini-cli", "claude-code", "gemini-cli"}, "gemini-cli:project"},
	} {
		opts := core.DefaultOptions()
		opts.Agents = tc.agents
		res, err := core.Discover(context.Background(), fsys, agentCwd, agentHome, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Skills) != 1 || res.Skills[0].Source != tc.winner || len(res.Shadowed) != 1 {
			t.Errorf("S65 %v: skills %+v shadowed %+v, want %s to win", tc.agents, res.Skills, res.Shadowed, tc.winner)
		}
	}
}

// TestUnknownAgent: an id outside the table is UNKNOWN_AGENT, naming the
// close ids and every known one (S65), in discover and in where.
func TestUnknownAgent(t *testing.T) {
	fsys := memfs.New()
	_ = fsys.WriteFile("/p/s/SKILL.md", []byte("---\ndescription: d\n---\n"))
	for _, tc := range []struct{ id, suggest string }{
		{"clade-code", "\nDid you mean: claude-code\n"},
		{"Codex", "\nDid you mean: codex, kode, qoder\n"}, // S50's order: case first, then distance
		{"nothing-like-it", ""},
		{"", ""},
	} {
		opts := core.DefaultOptions()
		opts.Agents = []string{"codex", tc.id}
		_, err := core.Discover(context.Background(), fsys, agentCwd, agentHome, opts)
		var e *core.Error
		if !errors.As(err, &e) || e.Code != core.CodeUnknownAgent {
			t.Fatalf("S65 %q: %v, want %s", tc.id, err, core.CodeUnknownAgent)
		}
		if !strings.HasPrefix(e.Message, "Unknown agent: "+tc.id+"\n") || !strings.Contains(e.Message, "\nKnown agents: adal, ") ||
			strings.Contains(e.Message, "Did you mean") != (tc.suggest != "") || !strings.Contains(e.Message, tc.suggest) {
			t.Errorf("S65 %q: message %q", tc.id, e.Message)
		}
		if _, err := core.Where(context.Background(), fsys, agentCwd, agentHome, "/p/s", opts); !errors.As(err, &e) || e.Code != core.CodeUnknownAgent {
			t.Errorf("S65 where %q: %v", tc.id, err)
		}
	}
}

// TestAgentEnv: a variable that is set moves the folder it names; a blank
// one is unset; a relative one is taken from cwd (S66). Other variables
// are not read.
func TestAgentEnv(t *testing.T) {
	fsys := memfs.New()
	for _, p := range []string{"/cfg/skills/a", agentCwd + "/rel/skills/b", agentHome + "/.claude/skills/c", "/x/skills/d"} {
		_ = fsys.WriteFile(p+"/SKILL.md", []byte("---\ndescription: d\n---\n"))
	}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "c"},
		{map[string]string{"CLAUDE_CONFIG_DIR": "/cfg"}, "a"},
		{map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/"}, "a"},
		{map[string]string{"CLAUDE_CONFIG_DIR": "  "}, "c"},
		{map[string]string{"CLAUDE_CONFIG_DIR": "rel"}, "b"},
		{map[string]string{"HOME": "/x", "CODEX_HOME": "/x"}, "c"},
	} {
		opts := core.DefaultOptions()
		opts.Agents, opts.Env = []string{"claude-code"}, tc.env
		res, err := core.Discover(context.Background(), fsys, agentCwd, agentHome, opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range res.Skills {
			got = append(got, s.Name)
		}
		if !slices.Equal(got, []string{tc.want}) {
			t.Errorf("S66 %v: %v, want [%s]", tc.env, got, tc.want)
		}
	}
}
