package core

import (
	"strings"
)

// Match reasons (SPEC S55).
const (
	MatchAlwaysApply = "alwaysApply"
	MatchGlobs       = "globs"
)

// SkillMatch is one skill that applies to a set of paths (SPEC S55).
type SkillMatch struct {
	Name   string
	Reason string   // MatchAlwaysApply or MatchGlobs
	Paths  []string // the matching paths, as given, in input order; empty for alwaysApply
}

// MatchResult is what [Match] returns: the skills that apply, in S15 order,
// and a warning for every globs pattern that does not compile.
type MatchResult struct {
	Skills   []SkillMatch
	Warnings []Warning
}

// Match says which of skills apply to paths (SPEC S55), for an editor that
// wants the skills relevant to the files being edited.
//
//   - A skill with alwaysApply: true applies whatever the paths (reason
//     "alwaysApply", no paths), even when its globs would match too.
//   - Otherwise a skill applies when one of its globs matches at least one
//     path (reason "globs", the matching paths as given, in input order,
//     a path given twice listed twice).
//   - A path is taken relative to cwd after turning `\` into `/`: an
//     absolute path must lie under cwd, and empty and "." segments are
//     dropped. An absolute path outside cwd, a path with a ".." segment
//     and a path that is empty once cleaned (cwd itself) never match.
//   - A pattern is compiled with github.com/gobwas/glob with '/' as the
//     separator: `*` and `?` stay inside one segment, `**` crosses
//     directories. A pattern without '/' is matched against the path's base
//     name; one with '/' against the whole relative path, a leading '/'
//     anchoring it at cwd (it is dropped before compiling, so "/src/*.go"
//     and "src/*.go" are the same pattern). "**/" is compiled as a
//     globstar (gobwas' Compiler.Globstar): zero or more whole segments, so
//     "**/*.ts" matches "a.ts" and "src/**/x" matches "src/x", as in
//     .gitignore and editors' rule globs.
//   - A pattern that does not compile is skipped with a warning naming the
//     skill's file; the skill's other patterns still count.
//   - A pattern longer than MaxGlobBytes is skipped the same way, with the
//     warning glob-too-complex (S57); a match costs time linear in the
//     path's length whatever the pattern (see compileGlob).
//
// skills are expected in S15 order (a [Result]'s are); the output keeps it.
//
// Where SPEC S55 is silent: the reply also carries "warnings" (the bad
// patterns; discovery's own warnings stay discover's), alwaysApply wins
// over globs, paths given twice are listed twice, and a Windows drive path
// is not absolute here (the engine's paths are slash paths).
func Match(skills []Skill, cwd string, paths []string) *MatchResult {
	res := &MatchResult{Skills: []SkillMatch{}, Warnings: []Warning{}}
	rel := make([]string, len(paths))
	ok := make([]bool, len(paths))
	for i, p := range paths {
		rel[i], ok[i] = relativeTo(cwd, p)
	}
	for i := range skills {
		s := &skills[i]
		if s.AlwaysApply != nil && *s.AlwaysApply {
			res.Skills = append(res.Skills, SkillMatch{Name: s.Name, Reason: MatchAlwaysApply, Paths: []string{}})
			continue
		}
		if len(s.Globs) == 0 {
			continue
		}
		pats := make([]pathPattern, 0, len(s.Globs))
		for _, g := range s.Globs {
			p, err := compilePathPattern(g)
			if err == errGlobTooLong {
				res.Warnings = append(res.Warnings, warning(s.FilePath,
					globTooComplexDiagnostic(s.FilePath, s.FilePath, g, "globs of skill "+quoteInput(s.Name))))
				continue
			}
			if err != nil {
				res.Warnings = append(res.Warnings, warning(s.FilePath, Diagnostic{Path: s.FilePath, Code: DiagInvalidGlob,
					Severity: SeverityWarning, Message: "Invalid glob pattern " + quoteInput(g) + " in globs of skill " + quoteInput(s.Name) +
						" (" + s.FilePath + "): " + err.Error() + "; the pattern is skipped"}))
				continue
			}
			pats = append(pats, p)
		}
		var matched []string
		for j, r := range rel {
			if !ok[j] {
				continue
			}
			for _, p := range pats {
				if p.match(r) {
					matched = append(matched, paths[j])
					break
				}
			}
		}
		if matched != nil {
			res.Skills = append(res.Skills, SkillMatch{Name: s.Name, Reason: MatchGlobs, Paths: matched})
		}
	}
	return res
}

// pathPattern is one compiled S55 pattern.
type pathPattern struct {
	whole bool // match the whole relative path, not the base name
	g     *globProgram
}

// pathSeparators are S55's: '/' separates segments, and "**/" is a
// globstar (zero or more whole segments).
var pathSeparators = []rune{'/'}

// compilePathPattern compiles an S55 pattern; one over MaxGlobBytes is
// errGlobTooLong (S57).
func compilePathPattern(src string) (pathPattern, error) {
	if len(src) > MaxGlobBytes {
		return pathPattern{}, errGlobTooLong
	}
	g, err := compileGlob(strings.TrimPrefix(src, "/"), pathSeparators, true)
	return pathPattern{whole: strings.Contains(src, "/"), g: g}, err
}

func (p pathPattern) match(rel string) bool {
	if !p.whole {
		rel = rel[strings.LastIndexByte(rel, '/')+1:]
	}
	ok, _ := p.g.match(rel)
	return ok
}

// relativeTo returns path relative to cwd (S55's rules), and false when it
// can never match.
func relativeTo(cwd, path string) (string, bool) {
	path = strings.ReplaceAll(path, `\`, "/")
	if strings.HasPrefix(path, "/") {
		base := strings.TrimSuffix(cwd, "/")
		rest, ok := strings.CutPrefix(path, base+"/")
		if !ok {
			return "", false
		}
		path = rest
	}
	segs := strings.Split(path, "/")
	out := segs[:0]
	for _, s := range segs {
		switch s {
		case "", ".":
			continue
		case "..":
			return "", false
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return "", false
	}
	return strings.Join(out, "/"), true
}
