package core

// The trust boundary of a linked SKILL.md or context file (SPEC S43, S44).
//
// A SKILL.md that is a symlink is loaded only when its realpath lies inside
// one of: the realpath of its skill folder; the realpath of the skills root
// it was found in; the realpath of its source's scope, which is
//
//   - for a project-level source: the repository root when cwd is inside a
//     repository, else the directory whose config folder holds the root
//     (<a> for <a>/.claude/skills); none when that is "/";
//   - for a user-level source other than claude-plugins, a custom directory
//     and the user context file: home;
//   - for a claude-plugins skill (either level): the plugin's installPath
//     only (plugins come from marketplaces);
//   - for [ScanDir]: none (it has no load context): folder and root only.
//
// A context file is checked the same way against the directory it was
// found in and its scope (repository or <a>; home for the user file).
//
// Otherwise the file is not read: discovery warns "<path> links outside
// its skill (<realpath>); link the skill folder instead" and lists it in
// shadowed with reason link-outside, named after its folder. A linked skill
// *folder* is followed as S11 says; the boundary applies to the SKILL.md
// inside it relative to the folder's realpath. Every later read of that
// SKILL.md (resolve, expandCommand, listFiles) repeats the check and reads
// through [readFileWithin], which checks the file actually opened.

// linkOutsideMessage is the S43 warning.
func linkOutsideMessage(file, real string) string {
	return file + " links outside its skill (" + real + "); link the skill folder instead"
}

// trustedWithin returns the realpath of the boundary among dirs (taken in
// order, each resolved now) that contains real, or "" when none does. A
// dir that has no realpath, or is "", is skipped.
func trustedWithin(fsys FS, real string, dirs ...string) string {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		r, err := fsys.Realpath(d)
		if err != nil {
			continue
		}
		if pathWithin(real, r) {
			return r
		}
	}
	return ""
}

// scopeOf is the S43 scope of a root of the given level: home for a user
// root; for a project root the repository root (repo, when cwd is inside
// one), else the ancestor of cwd whose config folder holds root, or ""
// when that is "/".
func scopeOf(root, level, home, repo string, ancestors []string) string {
	if level != "project" {
		return home
	}
	if repo != "" {
		return repo
	}
	for _, a := range ancestors {
		if under(root, a) && a != "/" {
			return a
		}
	}
	return ""
}

// skillFileWithin checks the SKILL.md of s at read time (S44): it returns
// the realpath of the directory the file's realpath lies in (its baseDir,
// else one of its S43 boundaries), or PATH_ESCAPE (an *Error). When the
// file has no realpath the error is Realpath's (a *PathError), unless its
// deepest ancestor with one escapes (S31).
func skillFileWithin(fsys FS, s *Skill) (string, error) {
	base := skillBaseDir(s)
	real, err := fsys.Realpath(s.FilePath)
	if err != nil {
		if _, e := containedRealpath(fsys, base, s.FilePath); e != nil && e.(*Error).Code == CodePathEscape {
			return "", e
		}
		return "", err
	}
	within := trustedWithin(fsys, real, append([]string{base}, s.trust...)...)
	if within == "" {
		return "", errorf(CodePathEscape, "Path traversal is not allowed")
	}
	return within, nil
}
