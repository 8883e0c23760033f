package core

import (
	"context"
	"strings"
)

// WhereResult answers "which agents load this skill folder?" (SPEC S67):
// for each agent of the table, whether the agent's discovery in the load
// context loads the folder's SKILL.md, under which name, and what keeps it
// out when it does not.
type WhereResult struct {
	Dir    string // the skill folder, cleaned
	Agents []AgentReach
}

// AgentReach is one agent's answer for a skill folder. When the agent's
// folders never reach it, only Agent, DisplayName and Loaded (false) are
// set.
type AgentReach struct {
	Agent       string // the agent's id
	DisplayName string
	Loaded      bool
	Name        string // the name the agent knows the skill by
	FilePath    string // the SKILL.md path through which the agent reaches it
	Source      string // "<agent>:<level>"
	// Reason says why a reached skill is not loaded (a shadow reason of
	// S27, or link-outside of S43); Winner is the filePath of the skill
	// that took its name or realpath.
	Reason string
	Winner string
}

// Where runs one discovery per agent of the table (or per agent of
// opts.Agents, in that order) with only that agent's folders and
// opts.Env, and reports for each whether it reaches dir, the folder holding
// a SKILL.md: a skill whose SKILL.md has the realpath of dir/SKILL.md
// (so a link to the folder counts). Other options play no part: the
// question is what each agent would do, not what this engine's options
// make of it.
func Where(ctx context.Context, fsys FS, cwd, home, dir string, opts Options) (*WhereResult, error) {
	cwd, home, err := checkContext(cwd, home)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(dir, "/") {
		return nil, errorf(CodeInvalidArgument, "dir must be an absolute path")
	}
	if err := checkAgents(opts.Agents); err != nil {
		return nil, err
	}
	dir = cleanPath(dir)
	file := joinPath(dir, "SKILL.md")
	if t, err := fsys.Stat(file); err != nil || t != TypeFile {
		return nil, errorf(CodeNotFound, "no SKILL.md in "+dir+": where takes a skill folder")
	}
	real := file
	if r, err := fsys.Realpath(file); err == nil {
		real = r
	}
	ids := opts.Agents
	if len(ids) == 0 {
		for i := range agentProfiles {
			ids = append(ids, agentProfiles[i].ID)
		}
	}
	res := &WhereResult{Dir: dir, Agents: []AgentReach{}}
	var seen []string
	for _, id := range ids {
		if contains(seen, id) {
			continue
		}
		seen = append(seen, id)
		a, _ := agentProfile(id)
		reach, err := whereAgent(ctx, fsys, cwd, home, real, a, opts.Env)
		if err != nil {
			return nil, err
		}
		res.Agents = append(res.Agents, reach)
	}
	return res, nil
}

// whereAgent is one agent's answer: the skill of its discovery whose
// SKILL.md has the realpath real, else the first shadowed one (S15 order).
func whereAgent(ctx context.Context, fsys FS, cwd, home, real string, a *AgentProfile, env map[string]string) (AgentReach, error) {
	reach := AgentReach{Agent: a.ID, DisplayName: a.DisplayName}
	opts := DefaultOptions()
	opts.Agents = []string{a.ID}
	opts.Env = env
	res, err := Discover(ctx, fsys, cwd, home, opts)
	if err != nil {
		return reach, err
	}
	for i := range res.Skills {
		if s := &res.Skills[i]; s.realpath == real {
			reach.Loaded, reach.Name, reach.FilePath, reach.Source = true, s.Name, s.FilePath, s.Source
			return reach, nil
		}
	}
	for _, sh := range res.Shadowed {
		r, err := fsys.Realpath(sh.FilePath)
		if err != nil {
			r = sh.FilePath
		}
		if r == real {
			reach.Name, reach.FilePath, reach.Source, reach.Reason, reach.Winner = sh.Name, sh.FilePath, sh.Source, sh.Reason, sh.Winner
			return reach, nil
		}
	}
	return reach, nil
}
