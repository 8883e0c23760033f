package core

// Options are the discovery options of SPEC section 5. Start from
// [DefaultOptions]: the zero value disables everything.
type Options struct {
	Enabled             bool       `json:"enabled"`             // S22 master switch
	EnableCodexUser     bool       `json:"enableCodexUser"`     // S23
	EnableClaudeUser    bool       `json:"enableClaudeUser"`    // S23
	EnableClaudeProject bool       `json:"enableClaudeProject"` // S23
	EnablePiUser        bool       `json:"enablePiUser"`        // S23: native:user
	EnablePiProject     bool       `json:"enablePiProject"`     // S23: native:project
	CustomDirectories   []string   `json:"customDirectories"`   // S26
	IgnoredSkills       []string   `json:"ignoredSkills"`       // S24 globs
	IncludeSkills       []string   `json:"includeSkills"`       // S24 globs
	DisabledExtensions  []string   `json:"disabledExtensions"`  // S24: "skill:<name>"
	ConfigDirName       string     `json:"configDirName"`       // S3, default ".xcsh"
	ExtraProviders      []Provider `json:"extraProviders"`      // S19

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
	FrontmatterCache *FrontmatterCache `json:"-"`
}

// DefaultOptions returns the SPEC section 5 defaults: everything enabled,
// no filters, config directory ".xcsh".
func DefaultOptions() Options {
	return Options{
		Enabled:             true,
		EnableCodexUser:     true,
		EnableClaudeUser:    true,
		EnableClaudeProject: true,
		EnablePiUser:        true,
		EnablePiProject:     true,
		ConfigDirName:       ".xcsh",
	}
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
