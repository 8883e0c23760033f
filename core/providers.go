package core

import (
	"strings"
)

// provider is one row of SPEC section 4's table, or an extra provider (S19).
type provider struct {
	id          string
	displayName string
	priority    int
	userFirst   bool // S17: the user level is scanned before the project level
	// afterCustom puts the provider's roots after the custom directories
	// (S63's managed skills), whatever its priority.
	afterCustom bool
	// agent marks a provider of the agent table (S65).
	agent bool
	// items lists the roots to scan in S17 item order, or warnings met while
	// finding them (S20's registry).
	items func(fsys FS, cwd, home string, ancestors []string, cfg string) []providerItem
}

// providerItem is one root to scan, or a warning instead of one.
type providerItem struct {
	spec    scanSpec
	warning Diagnostic // set when its Code is not ""
}

// builtinName is the display name of a built-in provider id. A switch,
// not a package-level map: the engine module is a build-time snapshot,
// which must hold no map built at init (wasm/ABI.md#the-module).
func builtinName(id string) (string, bool) {
	switch id {
	case "native":
		return "xcsh", true
	case "claude":
		return "Claude Code", true
	case "claude-plugins":
		return "Claude Code plugins", true
	case "agents":
		return "Agents", true
	case "codex":
		return "Codex", true
	case "opencode":
		return "OpenCode", true
	case "github":
		return "GitHub Copilot", true
	case "managed":
		return "Managed skills", true
	case "custom":
		return "Custom", true
	}
	return "", false
}

// providerDisplayName names a provider id for ScanDir: the table's display
// name for a built-in id, else the id itself.
func providerDisplayName(id string) string {
	if n, ok := builtinName(id); ok {
		return n
	}
	return id
}

// providerTable returns the built-in providers and opts.ExtraProviders,
// sorted by priority, higher first, ties in registration order (S19); with
// opts.Agents, those agents' providers instead (S65).
func providerTable(opts Options) []provider {
	if len(opts.Agents) > 0 {
		return agentsTable(opts) // S65
	}
	table := []provider{
		dirProvider(Provider{ID: "native", DisplayName: "xcsh", Priority: 100, RequireDescription: true,
			UserDirs: []string{opts.ConfigDirName + "/agent/skills"}, ProjectDirs: []string{opts.ConfigDirName + "/skills"}}),
		dirProvider(Provider{ID: "claude", DisplayName: "Claude Code", Priority: 80, UserFirst: true,
			UserDirs: []string{".claude/skills"}, ProjectDirs: []string{".claude/skills"}}),
		{id: "claude-plugins", displayName: "Claude Code plugins", priority: 70, userFirst: true, items: claudePluginItems},
		dirProvider(Provider{ID: "agents", DisplayName: "Agents", Priority: 70,
			UserDirs: []string{".agent/skills", ".agents/skills"}, ProjectDirs: []string{".agent/skills", ".agents/skills"}}),
		codexProvider(),
		// S62: the rows oh-my-pi 18 added, with its priorities.
		dirProvider(Provider{ID: "opencode", DisplayName: "OpenCode", Priority: 55, UserFirst: true, CwdOnly: true,
			UserDirs: []string{".config/opencode/skills"}, ProjectDirs: []string{".opencode/skills"}}),
		dirProvider(Provider{ID: "github", DisplayName: "GitHub Copilot", Priority: 30, CwdOnly: true, RequireDescription: true,
			ProjectDirs: []string{".github/skills"}}),
		managedProvider(opts.ConfigDirName),
	}
	for _, p := range opts.ExtraProviders {
		table = append(table, dirProvider(p))
	}
	sortStableFunc(table, func(a, b provider) int { return b.priority - a.priority })
	return table
}

// managedProvider is S63's row: the skills an agent writes for itself
// (oh-my-pi's auto-learn) in <home>/<cfg>/agent/managed-skills, a user
// root scanned after the custom directories, so that every skill a person
// wrote wins its name over one the agent wrote.
func managedProvider(cfg string) provider {
	p := dirProvider(Provider{ID: "managed", DisplayName: "Managed skills", Priority: 5, RequireDescription: true,
		UserDirs: []string{cfg + "/agent/managed-skills"}})
	p.afterCustom = true
	return p
}

// managedName reports whether name is a managed skill's name (S63): 1 to
// 64 lowercase ASCII letters, digits and "-", starting with a letter or a
// digit, the only names an agent gives the skills it writes.
func managedName(name string) bool {
	if name == "" || len(name) > 64 || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// codexSystemDir holds Codex's bundled skills (S48).
const codexSystemDir = ".codex/skills/.system"

// codexProvider is the codex row of the table plus S48: Codex installs its
// bundled skills in ~/.codex/skills/.system, a user root of its own scanned
// after ~/.codex/skills (whose scan skips the hidden entry like any other,
// S11). That root is silent on ENOTDIR: ~/.codex/skills being a file
// already warns once.
func codexProvider() provider {
	p := dirProvider(Provider{ID: "codex", DisplayName: "Codex", Priority: 70, UserFirst: true, CwdOnly: true,
		UserDirs: []string{".codex/skills", codexSystemDir}, ProjectDirs: []string{".codex/skills"}})
	items := p.items
	p.items = func(fsys FS, cwd, home string, ancestors []string, cfg string) []providerItem {
		list := items(fsys, cwd, home, ancestors, cfg)
		for i := range list {
			if list[i].spec.level == "user" && list[i].spec.root == joinPath(home, codexSystemDir) {
				list[i].spec.quietENOTDIR = true
			}
		}
		return list
	}
	return p
}

// dirProvider turns a data-only [Provider] into its S16/S17 root list.
//
// Not inlined: inlined at each of its call sites, it made a copy of its
// closure for each (four of 3.2 KB of wasm, every one of which a fresh
// instance's first discovery had V8 compile).
//
//go:noinline
func dirProvider(p Provider) provider {
	name := p.DisplayName
	if name == "" {
		name = p.ID
	}
	return provider{id: p.ID, displayName: name, priority: p.Priority, userFirst: p.UserFirst,
		items: func(fsys FS, cwd, home string, ancestors []string, cfg string) []providerItem {
			spec := func(root, level string) providerItem {
				return providerItem{spec: scanSpec{root: root, provider: p.ID, providerName: name, level: level,
					requireDescription: p.RequireDescription}}
			}
			var user, project []providerItem
			for _, d := range p.UserDirs {
				user = append(user, spec(joinPath(home, d), "user"))
			}
			dirs := ancestors
			if p.CwdOnly {
				dirs = nil
				if len(ancestors) > 0 && ancestors[0] == cwd {
					dirs = ancestors[:1]
				}
			}
			for _, a := range dirs {
				for _, d := range p.ProjectDirs {
					project = append(project, spec(joinPath(a, d), "project"))
				}
			}
			if p.UserFirst {
				return append(user, project...)
			}
			return append(project, user...)
		}}
}

// maxRegistryBytes bounds what is read of the plugin registry; a real one
// is a few KiB. A larger one warns with EFBIG.
const maxRegistryBytes = 16 << 20

// readBounded reads a whole file of at most max bytes; a larger one is an
// EFBIG error, found without reading it all when the FS can read prefixes.
func readBounded(fsys FS, file string, max int) ([]byte, error) {
	if pr, ok := fsys.(PrefixReader); ok {
		// Growing prefixes: a registry is a few KiB, and a buffer of max
		// bytes for each call cost more than the rest of a 1000-skill
		// discovery in wasm (allocated and cleared every time).
		for n := min(64<<10, max); ; n = min(8*n, max) {
			data, complete, err := pr.ReadFilePrefix(file, n)
			if err != nil || complete {
				return data, err
			}
			if n == max {
				return data, &PathError{Op: "readFile", Path: file, Code: EFBIG}
			}
		}
	}
	data, err := fsys.ReadFile(file)
	if err == nil && len(data) > max {
		err = &PathError{Op: "readFile", Path: file, Code: EFBIG}
	}
	return data, err
}

// claudePluginItems reads Claude Code's plugin registry (S20).
func claudePluginItems(fsys FS, cwd, home string, _ []string, _ string) []providerItem {
	file := joinPath(home, ".claude/plugins/installed_plugins.json")
	// Only a regular file is read: a FIFO would block and a device
	// (a link to /dev/zero) never end.
	t, err := fsys.Stat(file)
	if err == nil && t != TypeFile {
		err = &PathError{Op: "readFile", Path: file, Code: EINVAL}
		if t == TypeDir {
			err = &PathError{Op: "readFile", Path: file, Code: EISDIR}
		}
	}
	var data []byte
	if err == nil {
		data, err = readBounded(fsys, file, maxRegistryBytes)
	}
	if err != nil {
		if IsNotExist(err) {
			return nil
		}
		return []providerItem{{warning: readFailureDiagnostic(DiagPluginRegistryUnreadable, SeverityError, "Failed to read plugin registry", file, POSIXCode(err))}}
	}
	doc, err := parseJSON(data)
	top, _ := doc.(*Map)
	var plugins *Map
	if err == nil && top != nil {
		v, ok := top.Get("plugins")
		plugins, _ = v.(*Map)
		if !ok {
			plugins = &Map{}
		}
	}
	if plugins == nil {
		return []providerItem{{warning: Diagnostic{Path: file, Code: DiagPluginRegistryInvalid, Severity: SeverityError,
			Message: "Failed to parse plugin registry: " + file}}}
	}
	var items []providerItem
	// Each skills folder is scanned once: entries whose
	// <installPath>/skills has the realpath of one already taken (or, when
	// it has none, the same cleaned path) are dropped, the first in JSON
	// order kept. A scan of them would only find the same files again,
	// each lost to S25's realpath rule; 10000 entries naming one 100-skill
	// folder cost a million reads and 1.27 GB before.
	scanned := map[string]bool{}  // realpaths (or cleaned paths) of the roots taken
	resolved := map[string]bool{} // cleaned roots already looked at
	for _, id := range plugins.Keys() {
		at := strings.LastIndexByte(id, '@')
		if at < 0 {
			items = append(items, providerItem{warning: Diagnostic{Path: file, Code: DiagPluginIDInvalid, Severity: SeverityError,
				Message: "Invalid plugin ID format (missing @marketplace): " + id, Fix: "name the plugin <plugin>@<marketplace>"}})
			continue
		}
		e, _ := plugins.Get(id)
		entries, _ := e.([]Value)
		for _, e := range entries {
			entry, _ := e.(*Map)
			installPath, _ := entry.value("installPath").(string)
			if installPath == "" || !strings.HasPrefix(installPath, "/") || entry.value("enabled") == false {
				continue
			}
			level := "user"
			if scope, _ := entry.value("scope").(string); scope == "project" || scope == "local" {
				level = "project"
				projectPath, _ := entry.value("projectPath").(string)
				if !strings.HasPrefix(projectPath, "/") {
					continue
				}
				if pp := cleanPath(projectPath); pp != cwd && !under(cwd, pp) {
					continue
				}
			}
			root := joinPath(installPath, "skills")
			if resolved[root] {
				continue
			}
			resolved[root] = true
			key := root
			if r, err := fsys.Realpath(root); err == nil {
				key = r
			}
			if scanned[key] {
				continue
			}
			scanned[key] = true
			items = append(items, providerItem{spec: scanSpec{root: root,
				provider: "claude-plugins", providerName: "Claude Code plugins", level: level,
				namePrefix: id[:at] + ":", scope: cleanPath(installPath)}})
		}
	}
	return items
}

// value returns m[k], or nil when m is nil or k is absent.
func (m *Map) value(k string) Value {
	v, _ := m.Get(k)
	return v
}
