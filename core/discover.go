package core

import (
	"path"
	"slices"
	"strings"

	"github.com/gobwas/glob"
)

// Discover loads the skills of one load context (SPEC sections 3 to 5):
// every provider's roots in provider order, then the custom directories,
// filtered (S24), merged (S25, S26) and sorted (S15). It fails only on bad
// arguments (S1); everything that goes wrong on disk becomes a [Warning]
// and costs at most the skill concerned.
func Discover(fsys FS, cwd, home string, opts Options) (*Result, error) {
	cwd, home, err := checkContext(cwd, home)
	if err != nil {
		return nil, err
	}
	res := &Result{Skills: []Skill{}, Warnings: []Warning{}, Shadowed: []Shadowed{}}
	if !opts.Enabled { // S22: not even a look at the filesystem
		return res, nil
	}
	if opts.ConfigDirName == "" {
		opts.ConfigDirName = ".xcsh"
	}
	// Scan every root first, then filter and merge: knowing how many
	// skills were found sizes the result and the merger's maps once (10000
	// skills: growing them was a quarter of what a discovery allocated).
	// The calls on fsys come in the same order as before.
	type scanned struct {
		p       provider
		warning string // a provider-level warning (S20's registry), or ""
		spec    scanSpec
		out     scanOutcome
	}
	var roots []scanned
	found := 0
	ancestors, repo := projectChain(fsys, cwd, home)
	for _, p := range providerTable(opts) {
		for _, item := range p.items(fsys, cwd, home, ancestors, opts.ConfigDirName) {
			if item.warning != "" {
				roots = append(roots, scanned{p: p, warning: item.warning})
				continue
			}
			spec := item.spec
			if spec.provider != "claude-plugins" || spec.scope == "" { // S43
				spec.scope = scopeOf(spec.root, spec.level, home, repo, ancestors)
			}
			out := scanRoot(fsys, spec)
			found += len(out.skills)
			if rootScanned != nil && len(out.skills) > 0 { // a root without skills allocated little
				rootScanned()
			}
			roots = append(roots, scanned{p: p, spec: item.spec, out: out})
		}
	}
	custom := make([]scanned, 0, len(opts.CustomDirectories))
	for _, dir := range opts.CustomDirectories { // S26
		spec := scanSpec{root: customRoot(dir, cwd, home), provider: "custom", providerName: "Custom", level: "user",
			requireDescription: true, scope: home}
		out := scanRoot(fsys, spec)
		found += len(out.skills)
		custom = append(custom, scanned{spec: spec, out: out})
		if rootScanned != nil && len(out.skills) > 0 {
			rootScanned()
		}
	}

	res.Skills = make([]Skill, 0, found)
	m := merger{res: res, opts: &opts, byName: make(map[string]string, found), byReal: make(map[string]string, found)}
	m.ignored = m.compileGlobs(opts.IgnoredSkills, "ignoredSkills")
	m.included = m.compileGlobs(opts.IncludeSkills, "includeSkills")
	for i := range roots {
		r := &roots[i]
		if r.warning != "" {
			// A provider-level warning is heard when any level of the
			// provider is on, like its roots' warnings.
			if sourceEnabled(opts, r.p.id, "user") || sourceEnabled(opts, r.p.id, "project") {
				res.Warnings = append(res.Warnings, Warning{"", "[" + r.p.displayName + "] " + r.warning})
			}
			continue
		}
		out := &r.out
		enabled := sourceEnabled(opts, r.spec.provider, r.spec.level)
		if enabled { // warnings of a source the user turned off are noise
			if out.rootWarning != "" {
				res.Warnings = append(res.Warnings, Warning{"", "[" + r.p.displayName + "] " + out.rootWarning})
			}
			for _, w := range out.fileWarnings {
				res.Warnings = append(res.Warnings, Warning{"", "[" + r.p.displayName + "] " + w.Message})
			}
		}
		res.Shadowed = append(res.Shadowed, out.outside...) // S43: before the filters
		for i := range out.skills {
			m.offer(&out.skills[i], enabled, false)
		}
	}
	for i := range custom {
		c := &custom[i]
		out := &c.out
		if out.rootWarning != "" {
			res.Warnings = append(res.Warnings, Warning{c.spec.root, out.rootWarning})
		}
		res.Warnings = append(res.Warnings, out.fileWarnings...)
		res.Shadowed = append(res.Shadowed, out.outside...)
		for i := range out.skills {
			m.offer(&out.skills[i], true, true)
		}
	}
	sortSkills(res.Skills)
	sortStableFunc(res.Shadowed, func(a, b Shadowed) int {
		return compareS15(a.Name, a.FilePath, b.Name, b.FilePath)
	})
	applyReplyBudget(res) // S45
	return res, nil
}

// rootScanned, when set, runs after each skills root a discovery scans
// that held a skill ([UseRootScanned]).
var rootScanned func()

// UseRootScanned makes f run after each skills root a discovery scans that
// held a skill (most roots of a context do not exist; a collection's check
// costs the module a stop of the world, issue 13). The
// wasm module collects garbage there when a discovery has allocated a lot:
// within one of its calls the Go runtime completes no collection of its
// own, so a 10,000-skill discovery otherwise holds all it ever allocated.
func UseRootScanned(f func()) { rootScanned = f }

// ScanDir scans one skills directory on its own (SPEC S28): section 3 with
// requireDescription, no filters, no dedupe. source is "<provider>:<level>";
// the provider defaults to "custom" and the level to "user".
func ScanDir(fsys FS, dir, source string) (*ScanResult, error) {
	if !strings.HasPrefix(dir, "/") {
		return nil, errorf(CodeInvalidArgument, "dir must be an absolute path")
	}
	provider, level, _ := strings.Cut(source, ":")
	if provider == "" {
		provider = "custom"
	}
	if level == "" {
		level = "user"
	}
	if level != "user" && level != "project" {
		return nil, errorf(CodeInvalidArgument, `source level must be "user" or "project": `+source)
	}
	dir = path.Clean(dir)
	out := scanRoot(fsys, scanSpec{root: dir, provider: provider, providerName: providerDisplayName(provider),
		level: level, requireDescription: true})
	res := &ScanResult{Skills: out.skills, Warnings: []Warning{}}
	if res.Skills == nil {
		res.Skills = []Skill{}
	}
	if out.rootWarning != "" {
		res.Warnings = append(res.Warnings, Warning{dir, out.rootWarning})
	}
	res.Warnings = append(res.Warnings, out.fileWarnings...)
	return res, nil
}

// checkContext applies S1: both paths absolute, then cleaned.
func checkContext(cwd, home string) (string, string, error) {
	if !strings.HasPrefix(cwd, "/") {
		return "", "", errorf(CodeInvalidArgument, "cwd must be an absolute path")
	}
	if !strings.HasPrefix(home, "/") {
		return "", "", errorf(CodeInvalidArgument, "home must be an absolute path")
	}
	return path.Clean(cwd), path.Clean(home), nil
}

// customRoot expands a customDirectories entry (S26): "~" and "~/..." are
// under home, a relative entry is under cwd.
func customRoot(dir, cwd, home string) string {
	switch {
	case dir == "~":
		return home
	case strings.HasPrefix(dir, "~/"):
		return path.Join(home, dir[2:])
	case strings.HasPrefix(dir, "/"):
		return path.Clean(dir)
	}
	return path.Join(cwd, dir)
}

// projectAncestors returns the project directories of S16, closest first:
// from cwd up to the repository root (the nearest ancestor holding a .git
// entry of any type), or, outside a repository, up to the directory below
// home when cwd is under home, else up to "/". home is never among them.
func projectAncestors(fsys FS, cwd, home string) []string {
	chain, _ := projectChain(fsys, cwd, home)
	return chain
}

// projectChain is [projectAncestors], and the repository root when cwd is
// inside a repository ("" otherwise; S43's project scope).
func projectChain(fsys FS, cwd, home string) (ancestors []string, repo string) {
	if cwd == home {
		return nil, ""
	}
	var chain []string
	for a := cwd; ; a = path.Dir(a) {
		chain = append(chain, a)
		if _, err := fsys.Lstat(path.Join(a, ".git")); err == nil {
			return without(chain, home), a // a repository: up to its root
		}
		if a == "/" {
			break
		}
	}
	// Not in a repository.
	if under(cwd, home) {
		var out []string
		for _, a := range chain {
			if a == home {
				break
			}
			out = append(out, a)
		}
		return out, ""
	}
	return without(chain, home), ""
}

// under reports whether p lies strictly below dir.
func under(p, dir string) bool {
	if dir == "/" {
		return p != "/"
	}
	return strings.HasPrefix(p, dir+"/")
}

func without(list []string, drop string) []string {
	return slices.DeleteFunc(list, func(s string) bool { return s == drop })
}

// sourceEnabled applies the S23 toggles to a source.
func sourceEnabled(o Options, provider, level string) bool {
	switch provider + ":" + level {
	case "codex:user":
		return o.EnableCodexUser
	case "claude:user":
		return o.EnableClaudeUser
	case "claude:project":
		return o.EnableClaudeProject
	case "native:user":
		return o.EnablePiUser
	case "native:project":
		return o.EnablePiProject
	case "custom:user":
		return true // S26: custom directories skip the source toggles
	}
	return o.EnableCodexUser || o.EnableClaudeUser || o.EnableClaudeProject || o.EnablePiUser || o.EnablePiProject
}

// merger applies the filters of S24 and the merge of S25 and S26.
type merger struct {
	res      *Result
	opts     *Options
	ignored  []namePattern
	included []namePattern
	byName   map[string]string // accepted names -> winner's filePath
	byReal   map[string]string // accepted realpaths -> winner's filePath
}

// namePattern is one compiled S24 glob; a pattern that does not compile
// has a nil glob and matches nothing.
type namePattern struct {
	g      *glob.Pattern
	negate bool
}

func (p namePattern) match(name string) bool {
	if p.g == nil {
		return false
	}
	return p.g.Match(name) != p.negate
}

func (m *merger) compileGlobs(patterns []string, option string) []namePattern {
	out := make([]namePattern, 0, len(patterns))
	for _, pat := range patterns {
		np := namePattern{}
		src := pat
		if strings.HasPrefix(src, "!") {
			np.negate, src = true, src[1:]
		}
		g, err := glob.Compile(src) // no separators: * crosses ':'
		if err != nil {
			m.res.Warnings = append(m.res.Warnings, Warning{"",
				`Invalid glob pattern "` + pat + `" in ` + option + ": " + err.Error()})
		} else {
			np.g = g
		}
		out = append(out, np)
	}
	return out
}

func anyMatch(list []namePattern, name string) bool {
	for _, p := range list {
		if p.match(name) {
			return true
		}
	}
	return false
}

// offer runs one found skill through S24's filters and S25's merge.
func (m *merger) offer(s *Skill, sourceOn, custom bool) {
	reason := ""
	switch {
	case disabledSkill(m.opts.DisabledExtensions, s.Name):
		reason = ReasonDisabled
	case !sourceOn:
		reason = ReasonSourceOff
	case anyMatch(m.ignored, s.Name):
		reason = ReasonIgnored
	case len(m.opts.IncludeSkills) > 0 && !anyMatch(m.included, s.Name):
		reason = ReasonNotIncluded
	}
	if reason != "" {
		m.shadow(s, reason, "")
		return
	}
	if winner, ok := m.byReal[s.realpath]; ok {
		m.shadow(s, ReasonRealpath, winner)
		return
	}
	if winner, ok := m.byName[s.Name]; ok {
		m.shadow(s, ReasonName, winner)
		if custom {
			m.res.Warnings = append(m.res.Warnings, Warning{s.FilePath,
				`name collision: "` + s.Name + `" already loaded from ` + winner + ", skipping this one"})
		}
		return
	}
	m.res.Skills = appendSkill(m.res.Skills, s)
	m.byName[s.Name] = s.FilePath
	m.byReal[s.realpath] = s.FilePath
}

// disabledSkill reports whether list holds "skill:"+name, without building
// that string for every skill of a discovery.
func disabledSkill(list []string, name string) bool {
	for _, x := range list {
		if len(x) == len("skill:")+len(name) && strings.HasPrefix(x, "skill:") && x[len("skill:"):] == name {
			return true
		}
	}
	return false
}

func (m *merger) shadow(s *Skill, reason, winner string) {
	m.res.Shadowed = append(m.res.Shadowed, Shadowed{Name: s.Name, FilePath: s.FilePath, Source: s.Source, Reason: reason, Winner: winner})
}
