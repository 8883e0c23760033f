package core

import (
	"context"
	"slices"
	"strings"
)

// Discover loads the skills of one load context (SPEC sections 3 to 5):
// every provider's roots in provider order, then the custom directories,
// filtered (S24), kept out when the project is not trusted (S68), merged
// (S25, S26) and sorted (S15). It fails only on bad
// arguments (S1); everything that goes wrong on disk becomes a [Warning]
// and costs at most the skill concerned.
func Discover(ctx context.Context, fsys FS, cwd, home string, opts Options) (*Result, error) {
	cwd, home, err := checkContext(cwd, home)
	if err != nil {
		return nil, err
	}
	if err := canceled(ctx, "discover"); err != nil {
		return nil, err
	}
	if err := checkAgents(opts.Agents); err != nil {
		return nil, err
	}
	res := &Result{Skills: []Skill{}, Warnings: []Warning{}, Shadowed: []Shadowed{}}
	if opts.Disabled { // S22: not even a look at the filesystem
		return res, nil
	}
	if opts.ConfigDirName == "" {
		opts.ConfigDirName = DefaultConfigDirName
	}
	// Scan every root first, then filter and merge: knowing how many
	// skills were found sizes the result and the merger's maps once (10000
	// skills: growing them was a quarter of what a discovery allocated).
	roots, found, store := scanContext(ctx, fsys, cwd, home, &opts)
	if err := canceled(ctx, "discover"); err != nil {
		return nil, err
	}
	// The merger compacts the skills it keeps into the array the scans
	// filled (shareSkillStorage): it takes them in that array's order and
	// keeps at most one for each it takes, so it never writes over one it
	// has yet to take.
	res.Skills = store[:0]
	m := merger{res: res, opts: &opts, byName: make(map[string]string, found), byReal: make(map[string]string, found)}
	m.ignored = m.compileGlobs(opts.IgnoredSkills, "ignoredSkills")
	m.included = m.compileGlobs(opts.IncludeSkills, "includeSkills")
	for i := range roots {
		m.take(&roots[i])
	}
	sortSkills(res.Skills)
	sortShadowed(res.Shadowed)
	applyReplyBudget(res) // S45
	return res, nil
}

// Discover and the functions below are split where they are because of
// how V8 runs Go's wasm: Go compiles a function to one wasm loop
// whose every taken branch jumps back to its head, and V8's baseline
// compiler charges each such jump its distance in machine code against the
// function's budget for optimisation. A loop inside a large function
// therefore sends the whole function to the optimising compiler after a
// few iterations, which a one-shot process then waits for at exit; a loop
// whose body is a small function of its own costs little and, if it does
// get optimised, is cheap to optimise. So each loop over roots or skills
// calls a small function, kept out of line (go:noinline) where the
// compiler would otherwise fold it back in.

// scanned is one skills root of a discovery, scanned, or a provider-level
// warning in place of one.
type scanned struct {
	p        provider
	custom   bool       // a customDirectories entry (S26)
	relative bool       // a customDirectories entry relative to cwd: a folder of the project (S68)
	warning  Diagnostic // a provider-level warning (S20's registry), when its Code is not ""
	spec     scanSpec
	out      scanOutcome
	listed   *rootScan // the root listed, to be scanned (nil: out is all there is)
}

// scanContext scans every root of a load context: the providers' roots in
// provider order, then the custom directories (S26), and counts the skills
// found. Every root is listed first (listRoot), then one read-ahead hint
// names the SKILL.md reads of them all (hintSkillReads), then each is
// scanned, in the same order, into its part of store (shareSkillStorage).
//
//go:noinline
func scanContext(ctx context.Context, fsys FS, cwd, home string, opts *Options) (roots []scanned, found int, store []Skill) {
	ancestors, repo := projectChain(fsys, cwd, home)
	table := providerTable(*opts)
	listProviders := func(afterCustom bool) {
		for _, p := range table {
			if p.afterCustom != afterCustom {
				continue
			}
			for _, item := range p.items(fsys, cwd, home, ancestors, opts.ConfigDirName) {
				if ctx.Err() != nil {
					return // Discover reports it
				}
				roots = append(roots, scanned{p: p})
				listItem(fsys, &roots[len(roots)-1], &item, cwd, home, repo, ancestors)
			}
		}
	}
	listProviders(false)
	for _, dir := range opts.CustomDirectories { // S26
		roots = append(roots, scanned{custom: true})
		listCustom(fsys, &roots[len(roots)-1], dir, cwd, home)
	}
	listProviders(true) // S63: managed skills come last
	if p, ok := fsys.(Prefetcher); ok {
		hintRoots(p, roots)
	}
	store = shareSkillStorage(roots)
	var scratch *scanScratch
	cache := opts.FrontmatterCache.use(listedCandidates(roots))
	for i := range roots {
		if ctx.Err() != nil {
			return nil, 0, nil
		}
		found += scanListed(ctx, &roots[i], &scratch, cache)
	}
	return roots, found, store
}

// shareSkillStorage gives every listed root its part of one array, room for
// all their candidates, and returns the array (empty): Discover's merger
// then keeps the skills it accepts in the same array rather than copying
// them all into a second (a 1,000-skill discovery: 256 KB less, in a
// one-shot process pages of linear memory touched for nothing).
// A root cannot find more skills than its candidates; if one did, its
// slice would grow away from the array, which stays correct.
//
//go:noinline
func shareSkillStorage(roots []scanned) []Skill {
	n := 0
	for i := range roots {
		if l := roots[i].listed; l != nil {
			n += l.candidates
		}
	}
	store := make([]Skill, 0, n)
	at := 0
	for i := range roots {
		if l := roots[i].listed; l != nil {
			l.out.skills = store[at : at : at+l.candidates]
			at += l.candidates
		}
	}
	return store
}

// listItem lists one provider root into r (listRoot).
//
//go:noinline
func listItem(fsys FS, r *scanned, item *providerItem, cwd, home, repo string, ancestors []string) {
	if item.warning.Code != "" {
		r.warning = item.warning
		return
	}
	spec := item.spec
	if spec.provider != "claude-plugins" || spec.scope == "" { // S43
		spec.scope = scopeOf(spec.root, spec.level, home, repo, ancestors)
	}
	// S75: a refused read of a project root above cwd is the host's grant
	// bounding the walk up, not a problem to report.
	spec.quietEPERM = spec.level == "project" && spec.provider != "claude-plugins" && !under(spec.root, cwd)
	r.spec = item.spec
	r.listed, r.out = listRoot(fsys, spec)
}

// listCustom lists one customDirectories entry (S26) into r (listRoot).
//
//go:noinline
func listCustom(fsys FS, r *scanned, dir, cwd, home string) {
	r.spec = scanSpec{root: customRoot(dir, cwd, home), provider: "custom", providerName: "Custom", level: "user",
		requireDescription: true, scope: home, reportMissing: true}
	r.relative = dir != "~" && !strings.HasPrefix(dir, "~/") && !strings.HasPrefix(dir, "/")
	r.listed, r.out = listRoot(fsys, r.spec)
}

// hintRoots sends the one read-ahead hint of a discovery's listed roots.
//
//go:noinline
func hintRoots(p Prefetcher, roots []scanned) {
	listed := make([]*rootScan, len(roots))
	for i := range roots {
		listed[i] = roots[i].listed
	}
	hintSkillReads(p, listed)
}

// listedCandidates counts the folders of the listed roots that may hold a
// skill.
func listedCandidates(roots []scanned) int {
	n := 0
	for i := range roots {
		if roots[i].listed != nil {
			n += roots[i].listed.candidates
		}
	}
	return n
}

// scanListed scans a listed root with the scratch the last scan left (nil
// for the first) and the discovery's frontmatter cache (nil: none), and
// returns how many skills it held.
//
//go:noinline
func scanListed(ctx context.Context, r *scanned, scratch **scanScratch, cache *FrontmatterCache) int {
	if r.listed == nil {
		return 0
	}
	r.listed.scanScratch, r.listed.cache = *scratch, cache
	r.out = r.listed.scan(ctx)
	*scratch, r.listed = r.listed.scanScratch, nil
	return len(r.out.skills)
}

// take passes one scanned root's warnings and skills through the filters
// and the merge.
//
//go:noinline
func (m *merger) take(r *scanned) {
	if r.warning.Code != "" {
		// A provider-level warning is heard when any level of the
		// provider is on, like its roots' warnings.
		if sourceEnabled(m.opts, r.p.id, "user") || sourceEnabled(m.opts, r.p.id, "project") {
			m.res.Warnings = append(m.res.Warnings, providerWarning(r.p.displayName, r.warning))
		}
		return
	}
	// Warnings of a source the user turned off are noise; custom
	// directories skip the source toggles (S26). Those of a project the
	// user has not trusted too (S68): nothing it holds is loaded.
	enabled := r.custom || sourceEnabled(m.opts, r.spec.provider, r.spec.level)
	if r.p.agent { // S65: an agent's sources are S23's "every other source", whatever their id
		enabled = sourceEnabled(m.opts, "", "")
	}
	trusted := !m.opts.UntrustedProject || !r.projectLevel()
	if enabled && trusted && (r.out.rootWarning.Code != "" || len(r.out.fileWarnings) > 0) {
		m.warn(r)
	}
	m.res.Shadowed = append(m.res.Shadowed, r.out.outside...) // S43: before the filters
	if r.p.afterCustom {
		r.out.skills = m.managedNames(r, enabled)
	}
	m.offerAll(r.out.skills, enabled, trusted, r.custom)
}

// projectLevel reports whether a scanned root is a folder of the project
// for S68: a project-level root of a provider (S18's level "project",
// claude-plugins' project and local entries included), or a
// customDirectories entry relative to cwd.
func (r *scanned) projectLevel() bool {
	return r.spec.level == "project" || r.custom && r.relative
}

// managedNames keeps the skills of a managed root whose names an agent
// can have given them (S63); each other one is left out with a warning
// (when its source is on).
//
//go:noinline
func (m *merger) managedNames(r *scanned, enabled bool) []Skill {
	kept := r.out.skills[:0]
	for _, s := range r.out.skills {
		if managedName(s.Name) {
			kept = append(kept, s)
		} else if enabled {
			m.res.Warnings = append(m.res.Warnings, warning("", Diagnostic{Path: s.FilePath, Code: DiagManagedName, Severity: SeverityError,
				Message: "[" + r.p.displayName + "] " + s.FilePath + ": " + quoteInput(s.Name) +
					" is not a managed skill name (1 to 64 lowercase letters, digits and -, not starting with -); skipped"}))
		}
	}
	return kept
}

// warn adds a scanned root's warnings to the result: a provider root's
// prefixed with the provider's name, a custom directory's as they are.
//
//go:noinline
func (m *merger) warn(r *scanned) {
	res, out := m.res, &r.out
	if r.custom {
		if out.rootWarning.Code != "" {
			res.Warnings = append(res.Warnings, warning(r.spec.root, out.rootWarning))
		}
		res.Warnings = append(res.Warnings, out.fileWarnings...)
		return
	}
	if out.rootWarning.Code != "" {
		res.Warnings = append(res.Warnings, providerWarning(r.p.displayName, out.rootWarning))
	}
	for _, w := range out.fileWarnings {
		res.Warnings = append(res.Warnings, providerWarning(r.p.displayName, w.Diagnostic))
	}
}

// providerWarning is a provider's warning (S21, S27): skillPath "", the
// message prefixed with the provider's display name; Path still names the
// file (S73).
func providerWarning(displayName string, d Diagnostic) Warning {
	d.Message = "[" + displayName + "] " + d.Message
	return warning("", d)
}

// offerAll offers each skill of one root, in order.
//
//go:noinline
func (m *merger) offerAll(skills []Skill, sourceOn, trusted, custom bool) {
	for i := range skills {
		m.offer(&skills[i], sourceOn, trusted, custom)
	}
}

// sortShadowed sorts shadowed entries by S15's order.
//
//go:noinline
func sortShadowed(list []Shadowed) {
	sortStableFunc(list, func(a, b Shadowed) int {
		return compareS15(a.Name, a.FilePath, b.Name, b.FilePath)
	})
}

// ScanDir scans one skills directory on its own (SPEC S28): section 3 with
// requireDescription, no filters, no dedupe. source is "<provider>:<level>";
// the provider defaults to "custom" and the level to "user".
func ScanDir(ctx context.Context, fsys FS, dir, source string) (*ScanResult, error) {
	if !strings.HasPrefix(dir, "/") {
		return nil, errorf(CodeInvalidArgument, "dir must be an absolute path")
	}
	if err := canceled(ctx, "scanDir"); err != nil {
		return nil, err
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
	dir = cleanPath(dir)
	out := scanRoot(ctx, fsys, scanSpec{root: dir, provider: provider, providerName: providerDisplayName(provider),
		level: level, requireDescription: true})
	if err := canceled(ctx, "scanDir"); err != nil {
		return nil, err
	}
	res := &ScanResult{Skills: out.skills, Warnings: []Warning{}}
	if res.Skills == nil {
		res.Skills = []Skill{}
	}
	if out.rootWarning.Code != "" {
		res.Warnings = append(res.Warnings, warning(dir, out.rootWarning))
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
	return cleanPath(cwd), cleanPath(home), nil
}

// customRoot expands a customDirectories entry (S26): "~" and "~/..." are
// under home, a relative entry is under cwd.
func customRoot(dir, cwd, home string) string {
	switch {
	case dir == "~":
		return home
	case strings.HasPrefix(dir, "~/"):
		return joinPath(home, dir[2:])
	case strings.HasPrefix(dir, "/"):
		return cleanPath(dir)
	}
	return joinPath(cwd, dir)
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
	for a := cwd; ; a = parentDir(a) {
		chain = append(chain, a)
		if _, err := fsys.Lstat(joinPath(a, ".git")); err == nil {
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
//
//go:noinline
func sourceEnabled(o *Options, provider, level string) bool {
	switch level {
	case "user":
		switch provider {
		case "codex":
			return !o.DisableCodexUser
		case "claude":
			return !o.DisableClaudeUser
		case "native":
			return !o.DisablePiUser
		case "custom":
			return true // S26: custom directories skip the source toggles
		}
	case "project":
		switch provider {
		case "claude":
			return !o.DisableClaudeProject
		case "native":
			return !o.DisablePiProject
		}
	}
	return !(o.DisableCodexUser && o.DisableClaudeUser && o.DisableClaudeProject && o.DisablePiUser && o.DisablePiProject)
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
	g      *globProgram
	negate bool
}

func (p namePattern) match(name string) bool {
	if p.g == nil {
		return false
	}
	ok, _ := p.g.match(name)
	return ok != p.negate
}

func (m *merger) compileGlobs(patterns []string, option string) []namePattern {
	out := make([]namePattern, 0, len(patterns))
	for _, pat := range patterns {
		np := namePattern{}
		src := pat
		if strings.HasPrefix(src, "!") {
			np.negate, src = true, src[1:]
		}
		var g *globProgram
		err := errGlobTooLong // S57: the pattern as written, "!" included
		if len(pat) <= MaxGlobBytes {
			g, err = compileGlob(src, nil, false) // no separators: * crosses ':'
		}
		if err == errGlobTooLong {
			m.res.Warnings = append(m.res.Warnings, warning("", globTooComplexDiagnostic("", "options", pat, option)))
		} else if err != nil {
			m.res.Warnings = append(m.res.Warnings, warning("", Diagnostic{Code: DiagInvalidGlob, Severity: SeverityWarning,
				Message: "Invalid glob pattern " + quoteInput(pat) + " in " + option + ": " + err.Error()}))
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

// offer runs one found skill through S24's filters, S68's trust and S25's
// merge. A skill of a project the user has not trusted (trusted false) is
// shadowed "untrusted" only when every S24 filter lets it through, so that
// reason says trusting the folder would make it a candidate.
func (m *merger) offer(s *Skill, sourceOn, trusted, custom bool) {
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
	case !trusted:
		reason = ReasonUntrusted
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
			m.res.Warnings = append(m.res.Warnings, warning(s.FilePath, Diagnostic{Path: s.FilePath, Code: DiagNameCollision,
				Severity: SeverityWarning, Message: `name collision: "` + s.Name + `" already loaded from ` + winner + ", skipping this one",
				Fix: "rename one of the two skills"}))
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
