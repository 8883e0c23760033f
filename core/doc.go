// Package core is the skilldex engine: it discovers agent skills (folders
// holding a SKILL.md) and serves them to a host. It is pure computation
// over a filesystem the host supplies ([FS]); it never imports os or
// syscall, so the same code runs natively and inside the wasm module.
//
// The rules below are those of the skilldex specification (SPEC.md, rule
// ids S1...). Each names the function that applies it.
//
// # Inputs
//
//   - S1: a load context is an absolute cwd and home; both are cleaned; a
//     relative one is an INVALID_ARGUMENT error ([Discover]).
//   - S2: every file access goes through [FS]; failures carry a POSIX code
//     ([ErrorCode]), and messages quote only that code, so every host gives
//     the same bytes (S42).
//   - S3: the agent's config directory is [Options].ConfigDirName (".xcsh").
//
// # SKILL.md files
//
//   - S4: UTF-8 with U+FFFD for invalid bytes, one BOM dropped, CRLF and CR
//     become LF; an empty file is never a skill ([DecodeText]).
//   - S5-S7: YAML frontmatter between "---" lines, parsed with yaml.v3;
//     invalid YAML keeps the skill, recovering top-level key: value lines,
//     with a warning naming file, line and fix ([ParseSkillFile]).
//   - S8, S9: the skill fields, and enabled: false skips a skill.
//
// # Scanning a root
//
//   - S10: a root is scanned one level deep: <root>/<entry>/SKILL.md.
//   - S11: hidden entries are skipped; directories and links to directories
//     are candidates (a link keeps its own name in filePath); broken links,
//     loops and links to files are skipped silently; entries are taken in
//     byte order of their names.
//   - S12: a missing root is silent; any other failure is one warning.
//   - S13, S14: the name is the frontmatter name or the entry name; some
//     providers require a description.
//   - S15: every list is ordered by lower-cased name, name, file path.
//
// Discovery reads only as much of a SKILL.md as its frontmatter needs, and
// at most 128 KiB: a frontmatter still open after that is rejected with a
// warning, so a huge or hostile file costs little.
//
// # Providers and loading
//
//   - S16: project roots are looked for in cwd and its ancestors up to the
//     repository root (the nearest .git), or below home, or up to /; home
//     itself is the user level, never a project ancestor.
//   - S17-S21: the provider table (native, claude, claude-plugins, agents,
//     codex, and a host's extra providers) in priority order.
//   - S22-S24: the master switch, per-source toggles, and name filters
//     (disabledExtensions, ignoredSkills and includeSkills globs).
//   - S25, S26: the first skill of a name wins; the same file reached twice
//     (same realpath) counts once; custom directories come last and warn on
//     a name collision.
//   - S27: [Result] carries skills, warnings, and every skill that was found
//     but not loaded with its reason ([Shadowed]).
//   - S28: [ScanDir] scans one directory without filters or dedupe.
//
// Where the specification is silent, this package decides as follows:
//   - A source switched off by a toggle is still scanned, so its skills can
//     be listed in Shadowed with reason "source-off", but its warnings are
//     dropped: the user chose not to hear from it.
//   - Invalid glob warnings come first, before any provider's warnings.
//   - A registry entry whose installPath is not absolute is skipped; an
//     unreadable registry (other than missing) warns "Failed to read plugin
//     registry: <path> (<CODE>)"; a registry whose top level or "plugins"
//     is not an object is unparseable.
//   - Custom-directory warnings are not prefixed with a display name; they
//     carry their path in skillPath instead.
//
// # Calling the engine as data
//
// [Call] takes a JSON [Request] and returns JSON: it is the one entry point
// of the wasm module, the JS package and the conformance corpus, so every
// runtime runs exactly the same decoding and encoding.
package core
