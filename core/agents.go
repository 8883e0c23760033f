package core

import (
	"strings"

	"github.com/skilldex/skilldex/internal/fmrules"
)

// AgentProfile is one coding agent that reads Agent Skills, as data (SPEC
// S64): the folders it looks for skill folders in, and which of them wins a
// name. The table is agentProfiles (agents_table.go); [Agents] returns it.
type AgentProfile struct {
	// ID is the agent's id in the npm "skills" installer (its --agent
	// option), so that one vocabulary names agents everywhere.
	ID          string
	DisplayName string

	// ProjectDirs are skills roots relative to a project folder, in the
	// order the agent prefers them: of two skills with one name, the one
	// in the earlier root wins.
	ProjectDirs []string
	// ProjectWalk says which project folders ProjectDirs are looked up in:
	// WalkCwd (the working directory only) or WalkAncestors (S16's project
	// ancestors, closest first).
	ProjectWalk string

	// UserDirs are the user's skills roots, in the order the agent
	// prefers them. Each is "~/<path>" (under home), an absolute path, or
	// "${VAR:-<default>}/<path>": under the value of the environment
	// variable VAR when Options.Env sets it (S66), else under <default>
	// ("~/..." or absolute).
	UserDirs []string

	// UserFirst: the user roots come before the project roots, so a user
	// skill wins a name over a project one. The agent's documented
	// precedence; where it documents none, project roots come first.
	UserFirst bool

	// RequireDescription: the agent skips a SKILL.md without a
	// description (S14).
	RequireDescription bool

	// Sources are the public pages and source files the row comes from.
	Sources []string
}

// AgentTable is the reply of the agents operation (S64): the table.
type AgentTable struct {
	Agents []AgentProfile
}

// Values of AgentProfile.ProjectWalk.
const (
	WalkCwd       = "cwd"
	WalkAncestors = "ancestors"
)

// CodeUnknownAgent is the error of an agent id the table does not hold
// (S65).
const CodeUnknownAgent = "UNKNOWN_AGENT"

// Agents returns the agent table (SPEC S64), in its order (by id). The
// slices are copies: a caller may change them.
func Agents() []AgentProfile {
	out := make([]AgentProfile, len(agentProfiles))
	for i, a := range agentProfiles {
		a.ProjectDirs = append([]string(nil), a.ProjectDirs...)
		a.UserDirs = append([]string(nil), a.UserDirs...)
		a.Sources = append([]string(nil), a.Sources...)
		out[i] = a
	}
	return out
}

// AgentEnv returns the names of the environment variables the table's
// user folders read (S66), sorted, each once: what a host passes in
// Options.Env.
func AgentEnv() []string {
	var out []string
	for i := range agentProfiles {
		for _, d := range agentProfiles[i].UserDirs {
			if name, _, _, ok := splitEnvDir(d); ok && !contains(out, name) {
				out = append(out, name)
			}
		}
	}
	sortFunc(out, strings.Compare)
	return out
}

// EnvNames returns the environment variables a's user folders read, in
// the order of its folders, each once.
func (a *AgentProfile) EnvNames() []string {
	var out []string
	for _, d := range a.UserDirs {
		if name, _, _, ok := splitEnvDir(d); ok && !contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// agentProfile returns the table's row for id.
func agentProfile(id string) (*AgentProfile, bool) {
	for i := range agentProfiles {
		if agentProfiles[i].ID == id {
			return &agentProfiles[i], true
		}
	}
	return nil, false
}

// checkAgents applies S65 to Options.Agents: every id is in the table,
// else the error UNKNOWN_AGENT names it, the close ids (S50's rule) and
// every known id.
func checkAgents(ids []string) error {
	for _, id := range ids {
		if _, ok := agentProfile(id); !ok {
			return unknownAgent(id)
		}
	}
	return nil
}

func unknownAgent(id string) *Error {
	known := make([]string, len(agentProfiles))
	for i := range agentProfiles {
		known[i] = agentProfiles[i].ID
	}
	var b strings.Builder
	b.WriteString("Unknown agent: ")
	b.WriteString(fmrules.Clip(id))
	if close := suggestNames(id, known); id != "" && len(close) > 0 {
		b.WriteString("\nDid you mean: ")
		b.WriteString(strings.Join(close, ", "))
	}
	b.WriteString("\nKnown agents: ")
	b.WriteString(strings.Join(known, ", "))
	return errorf(CodeUnknownAgent, b.String())
}

// splitEnvDir splits "${VAR:-<default>}<rest>" into its parts; ok is false
// for any other form.
func splitEnvDir(d string) (name, def, rest string, ok bool) {
	if !strings.HasPrefix(d, "${") {
		return "", "", "", false
	}
	end := strings.IndexByte(d, '}')
	if end < 0 {
		return "", "", "", false
	}
	name, def, ok = strings.Cut(d[2:end], ":-")
	return name, def, d[end+1:], ok
}

// agentUserRoot turns one of a profile's UserDirs into an absolute root
// (S66): "~/" is home; "${VAR:-default}" is the value of VAR in env when
// it is set and not blank (a relative value is taken from cwd, as the
// agent's own process would), else default.
func agentUserRoot(d, cwd, home string, env map[string]string) string {
	if name, def, rest, ok := splitEnvDir(d); ok {
		if v := strings.TrimSpace(env[name]); v != "" {
			if !strings.HasPrefix(v, "/") {
				v = joinPath(cwd, v)
			}
			return cleanPath(v + rest)
		}
		d = def + rest
	}
	if d == "~" || strings.HasPrefix(d, "~/") {
		return joinPath(home, strings.TrimPrefix(d[1:], "/"))
	}
	return cleanPath(d)
}

// agentProvider is a as a provider (S65): its user roots (env applied)
// and its project roots in a's order, each root once.
func agentProvider(a *AgentProfile, env map[string]string) provider {
	return provider{id: a.ID, displayName: a.DisplayName, userFirst: a.UserFirst, agent: true,
		items: func(_ FS, cwd, home string, ancestors []string, _ string) []providerItem {
			var user, project []providerItem
			var roots []string
			add := func(list *[]providerItem, root, level string) {
				if contains(roots, root) {
					return
				}
				quiet := false // a root inside an earlier one: that one warns already (S48)
				for _, r := range roots {
					quiet = quiet || under(root, r)
				}
				roots = append(roots, root)
				*list = append(*list, providerItem{spec: scanSpec{root: root, provider: a.ID, providerName: a.DisplayName,
					level: level, requireDescription: a.RequireDescription, quietENOTDIR: quiet}})
			}
			for _, d := range a.UserDirs {
				add(&user, agentUserRoot(d, cwd, home, env), "user")
			}
			dirs := ancestors
			if a.ProjectWalk == WalkCwd {
				dirs = nil
				if len(ancestors) > 0 && ancestors[0] == cwd {
					dirs = ancestors[:1]
				}
			}
			for _, at := range dirs {
				for _, d := range a.ProjectDirs {
					add(&project, joinPath(at, d), "project")
				}
			}
			if a.UserFirst {
				return append(user, project...)
			}
			return append(project, user...)
		}}
}

// agentsTable is the provider table of Options.Agents (S65): one provider
// per agent, in the order given (the first listed wins a name), each id
// once; then the extra providers (S19) by priority.
func agentsTable(opts Options) []provider {
	var table []provider
	var seen []string
	for _, id := range opts.Agents {
		a, ok := agentProfile(id)
		if !ok || contains(seen, id) {
			continue
		}
		seen = append(seen, id)
		table = append(table, agentProvider(a, opts.Env))
	}
	var extra []provider
	for _, p := range opts.ExtraProviders {
		extra = append(extra, dirProvider(p))
	}
	sortStableFunc(extra, func(a, b provider) int { return b.priority - a.priority })
	return append(table, extra...)
}
