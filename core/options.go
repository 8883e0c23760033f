package core

// Options are the discovery options of SPEC section 5. The zero value is
// the defaults: every source on, no filters, config directory ".xcsh". Each
// field says what it changes from them, so a field left out keeps its
// default (the switches are Disable..., off unless set).
type Options struct {
	Disabled             bool       // S22 master switch: true finds nothing, reads nothing
	DisableCodexUser     bool       // S23
	DisableClaudeUser    bool       // S23
	DisableClaudeProject bool       // S23
	DisablePiUser        bool       // S23: native:user
	DisablePiProject     bool       // S23: native:project
	CustomDirectories    []string   // S26
	IgnoredSkills        []string   // S24 globs
	IncludeSkills        []string   // S24 globs
	DisabledExtensions   []string   // S24: "skill:<name>"
	ConfigDirName        string     // S3; "" is the default ".xcsh"
	ExtraProviders       []Provider // S19

	// UntrustedProject says the user has not marked the project folder as
	// trusted (S68): project-level skills are found but not loaded (each
	// is in Result.Shadowed with reason "untrusted"), and project context
	// files are not read. The zero value, false, is today's trusted
	// project. On the wire it is the option trustedProject, its negation
	// (default true), so it has no json key of its own.
	UntrustedProject bool `json:"-"`

	// Agents, when not empty, replaces the provider table with the
	// folders of these agents of the agent table ([Agents]), by id, in
	// this order: the first listed wins a name (S65). An id the table does
	// not hold is the error UNKNOWN_AGENT.
	Agents []string `json:"agents"`
	// Env holds the environment variables the agent table's user folders
	// read (CLAUDE_CONFIG_DIR, CODEX_HOME, ...; [AgentEnv] lists them).
	// The engine never reads the process environment: a host passes what
	// it wants honoured (S66). Others are ignored.
	Env map[string]string `json:"env"`

	// FrontmatterCache, when set, keeps frontmatter results from one
	// discovery to the next (a host that discovers often: an editor).
	// Results are the same with or without it; see [FrontmatterCache] for
	// what its skills share with it.
	FrontmatterCache *FrontmatterCache
}

// DefaultConfigDirName is the config directory of S3, which an empty
// [Options].ConfigDirName means.
const DefaultConfigDirName = ".xcsh"

// DefaultOptions returns the SPEC section 5 defaults: the zero [Options]
// with its config directory spelt out.
func DefaultOptions() Options {
	return Options{ConfigDirName: DefaultConfigDirName}
}

// Provider is a source of skills described as data (SPEC section 4, S19): a
// host registers extra ones in this shape.
type Provider struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	Priority    int    `json:"priority"` // higher first; ties keep registration order

	// UserDirs are scanned under home, ProjectDirs under each project
	// ancestor (S16), both as slash paths relative to those directories.
	UserDirs    []string `json:"userDirs"`
	ProjectDirs []string `json:"projectDirs"`

	// UserFirst puts the user roots before the project roots (S17);
	// otherwise project roots come first, closest ancestor first.
	UserFirst bool `json:"userFirst"`

	// CwdOnly scans ProjectDirs at cwd only, not at every ancestor.
	CwdOnly bool `json:"cwdOnly"`

	RequireDescription bool `json:"requireDescription"` // S14
}
