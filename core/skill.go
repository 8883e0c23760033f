package core

// Skill is one discovered skill: the public skill object of the SPEC (section
// 5, "The public skill object"). Its JSON form (package wire writes it) is
// what every runtime returns.
type Skill struct {
	Name         string
	Description  string
	FilePath     string // the SKILL.md path as reached (a symlinked entry keeps the link's name)
	BaseDir      string // the directory holding SKILL.md
	Source       string // "<provider>:<level>"
	Provider     string
	ProviderName string
	Level        string // "user" or "project"
	SourcePath   string // the absolute SKILL.md path
	Frontmatter  *Map   // the whole mapping, keys as written; never nil

	// Present only when the frontmatter holds the right type (SPEC S8):
	// a nil slice is absent, a non-nil empty slice is an empty array.
	Contexts    []string
	Globs       []string
	AlwaysApply *bool

	// Claude Code's invocation controls (SPEC S47), set only by the
	// booleans: disable-model-invocation: true keeps the skill out of the
	// prompt; user-invocable: false keeps it out of the commands.
	DisableModelInvocation bool
	DisableUserInvocation  bool

	realpath string // the realpath of FilePath, for S25's dedupe
	// trust holds the directories besides BaseDir that a linked SKILL.md
	// may point into (SPEC S43): its skills root and its source's scope
	// (repository, project directory, home or plugin installPath), as
	// found; realpaths are taken when checked. Nil for a hand-built skill:
	// then only BaseDir counts (S31).
	trust []string
}

// Warning is a non-fatal problem met while discovering (or while reading
// context files, or matching): a [Diagnostic] (SPEC S73: the file, line,
// column, code, severity, message and fix) and SkillPath, the skill file
// or custom directory it concerns as S27 says ("" for a provider's
// warning, whose file is Path all the same).
type Warning struct {
	SkillPath string
	Diagnostic
}

// Shadow reasons (SPEC S27).
const (
	ReasonName        = "name"
	ReasonRealpath    = "realpath"
	ReasonDisabled    = "disabled"
	ReasonSourceOff   = "source-off"
	ReasonIgnored     = "ignored"
	ReasonNotIncluded = "not-included"
	// ReasonLinkOutside: the SKILL.md is a link whose realpath leaves
	// every S43 boundary; it was not read.
	ReasonLinkOutside = "link-outside"
	// ReasonUntrusted: a project-level skill, and the project is not
	// trusted (Options.UntrustedProject, S68).
	ReasonUntrusted = "untrusted"
)

// Shadowed is a skill that was found but not loaded, and why (SPEC S27).
type Shadowed struct {
	Name     string
	FilePath string
	Source   string
	Reason   string // one of the Reason constants
	Winner   string // the winning FilePath, for ReasonName and ReasonRealpath only
}

// Result is what [Discover] returns: the loaded skills, the warnings, and
// the skills that were found but not loaded, each with its reason.
type Result struct {
	Skills   []Skill
	Warnings []Warning
	Shadowed []Shadowed
}

// ScanResult is what [ScanDir] returns (SPEC S28).
type ScanResult struct {
	Skills   []Skill
	Warnings []Warning
}
