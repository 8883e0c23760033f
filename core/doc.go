// Package core is the skilldex engine: it discovers agent skills (folders
// holding a SKILL.md) and serves them to a host. It is pure computation
// over a filesystem the host supplies ([FS]); it never imports os or
// syscall, so the same code runs natively and inside the wasm module.
//
// The rules below are those of the skilldex specification (docs/SPEC.md,
// rule ids S1...). Each names the function that applies it.
//
// # Inputs
//
//   - S1: a load context is an absolute cwd and home; both are cleaned; a
//     relative one is an INVALID_ARGUMENT error ([Discover]).
//   - S2: every file access goes through [FS]; failures carry a POSIX code
//     ([POSIXCode]), and messages quote only that code, so every host gives
//     the same bytes (S42).
//   - S3: the agent's config directory is [Options].ConfigDirName (".xcsh").
//
// # SKILL.md files
//
//   - S4: UTF-8 with U+FFFD for invalid bytes, one BOM dropped, CRLF and CR
//     become LF; an empty file is never a skill ([DecodeText]).
//   - S5-S7: YAML frontmatter between "---" lines; invalid YAML keeps the
//     skill, recovering top-level key: value lines, with a warning naming
//     file, line and fix ([ParseSkillFile]). A fast scanner of this package
//     (yaml_scan.go) reads the common subset; everything it declines, and
//     every file `validate` reads, takes the complete path: adrg/frontmatter
//     splits and yaml.v3 (go.yaml.in/yaml/v3) parses, in package
//     internal/frontmatter, linked in natively and a second wasm module in
//     the wasm build ([FrontmatterParser]).
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
//     codex, opencode, github, and a host's extra providers) in priority
//     order.
//   - S62, S63: the folders oh-my-pi 18 reads (opencode, github) and the
//     managed skills an agent writes, scanned after the custom directories.
//   - S64-S66: the agent table ([Agents]): with [Options].Agents, exactly
//     those agents' folders in their own order; [Options].Env moves the user
//     folders an environment variable names ([AgentEnv] lists them).
//   - S67: [Where] says which agents load a skill folder, and as what.
//   - S48: ~/.codex/skills/.system, where Codex installs its bundled
//     skills, is a codex user root scanned after ~/.codex/skills.
//   - S81: the zero [Options] is the defaults; its switches are named
//     Disable..., so a field left out keeps its default.
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
//     dropped: the user chose not to hear from it. S43 now says so of its
//     link-outside warning (the Shadowed entry stays; docs/RATIONALE.md).
//   - Invalid glob warnings come first, before any provider's warnings.
//   - A registry entry whose installPath is not absolute is skipped; an
//     unreadable registry (other than missing) warns "Failed to read plugin
//     registry: <path> (<CODE>)"; a registry whose top level or "plugins"
//     is not an object is unparseable.
//   - Registry entries whose <installPath>/skills has the realpath of a
//     folder an earlier entry (in JSON order) already names are dropped
//     before scanning, without a warning: each plugin folder is scanned
//     once (10000 entries naming one folder cost a million
//     reads). Their skills would have been S25 realpath losers, so skills
//     are unchanged; those losers are no longer listed in Shadowed.
//   - Custom-directory warnings are not prefixed with a display name; they
//     carry their path in skillPath instead.
//   - The arguments are checked before the master switch: a relative cwd
//     is an error even with enabled: false. The message names the argument
//     at fault ("home must be an absolute path" for home).
//   - A SKILL.md that cannot be reached for a reason other than not being
//     there is reported, not dropped: a skill folder link, a SKILL.md or a
//     SKILL.md link whose stat or lstat fails with EACCES, EIO, ... gives
//     "Failed to read skill file: <folder>/SKILL.md (<CODE>)". Missing
//     (ENOENT, a dangling link), looping (ELOOP) and under-a-file (ENOTDIR)
//     stay silent, as S11 says.
//   - "Empty" in S4 means no bytes after decoding: a SKILL.md of blank
//     lines is a skill without frontmatter.
//   - With requireDescription, a description that is present and truthy but
//     not a string (a number, a list, true) does not skip the skill; its
//     description is "" (S14 names the values that skip it).
//   - An empty configDirName is the default ".xcsh"; an extra provider with
//     an empty displayName is named by its id.
//   - A project- or local-scoped plugin applies when its projectPath is cwd
//     or a path ancestor of cwd, also above the repository root and also
//     when cwd is home (S16's walk bounds the provider table's folders, not
//     what the registry says); a relative projectPath never applies.
//   - A provider-level warning (the plugin registry's) is dropped like the
//     warnings of its roots when every source of the provider is off.
//   - A custom directory listed twice is scanned twice: its second copies
//     are shadowed by realpath, without a collision warning.
//   - ~/.codex/skills/.system failing with ENOTDIR is silent: it happens
//     when ~/.codex/skills is a file, which already warns.
//
// # Serving skills
//
//   - S29-S32: [Resolve] reads skill://<name>[/<path>]. Errors are [*Error]
//     with the SPEC's codes and messages, checked in the SPEC's order
//     (decoding, name, unknown skill, NUL, absolute, "..", escape, not
//     found). The target's realpath must lie inside the realpath of the
//     skill's baseDir (PATH_ESCAPE otherwise), for every target including
//     SKILL.md; a missing target is checked through its deepest existing
//     ancestor, so a link out of the skill is refused whether or not the
//     file behind it exists.
//   - S33: [ListFiles] lists a skill's files, 8 levels deep, hidden entries
//     skipped, links followed only inside the skill.
//   - S34: [RenderPrompt] renders markdown or the Agent Skills xml block,
//     with a maxChars budget counted in UTF-16 code units (JavaScript's
//     string length).
//   - S46: a description cannot forge the markdown block's structure.
//   - S53: the budget shortens the longest descriptions first (to 80 at
//     least), then drops the lowest-priority skills first.
//   - S35-S37: [ExpandCommand] and [Commands] for /skill:<name>.
//   - S47: Claude Code's disable-model-invocation: true keeps a skill out of
//     the prompt; user-invocable: false keeps it out of the commands and
//     expandCommand passes its text through (the booleans only).
//   - S49: a command's name is the longest loaded name the text starts
//     with, followed by white space or the end, so names with spaces work.
//   - S38, S39: [ContextFiles] loads XCSH.md files along the S16 walk.
//   - S40: [Validate] reports [Diagnostic]s with the codes listed at the
//     Diag constants (missing-skill-md, invalid-yaml, name-charset, ...);
//     it reads SKILL.md only as S43 and S44 let discovery read it (a link
//     out of the skill is link-outside and never opened).
//   - S73: every [Warning] is a [Diagnostic] too (path, line, column,
//     code, severity, message, fix), the codes the Diag constants; the
//     message stays the text the rules define, and nothing needs reading
//     back out of it.
//   - S75: no silent answers. [ExpandCommand] of a command naming no
//     skill is UNKNOWN_SKILL (S50's "Did you mean") or MISSING_NAME; a
//     root the host refuses (EPERM) warns with the grant to give, but for
//     a project root above cwd; a missing custom directory warns;
//     [Validate] takes a SKILL.md for its folder.
//   - S41: [Explain] tells where a name was found and why each copy lost.
//   - S51: validate accepts allowed-tools as a string or a list of strings,
//     reports a non-string metadata value as a warning with a fix for its
//     kind, and validates a skills root skill folder by skill folder.
//   - S52: a name loss says which rule decided: provider priority, the
//     provider's level order (user or project first), closer to cwd, the
//     provider's folder order (~/.agent before ~/.agents), custom
//     directories last (or in the order listed), or S15 order in one root.
//   - S50: resolve, listFiles and explain share one unknown-name error:
//     up to 3 close names ("Did you mean"), then at most 20 loaded names.
//   - S56: a resolve target that is a directory says so and points to
//     listFiles.
//   - S57: the S24 and S55 globs mean what github.com/gobwas/glob makes of
//     them but are matched in time linear in the name or path (compileGlob);
//     a pattern over [MaxGlobBytes] is the warning glob-too-complex.
//   - S58: every warning quotes input through one helper (fmrules.Clip):
//     200 characters, control characters shown as U+FFFD.
//   - S68: Options.UntrustedProject (the wire's trustedProject: false)
//     loads no project-level skill (shadowed "untrusted"), drops the
//     project roots' warnings, and [ContextFilesFor] reads no project file.
//   - S69-S72: [Activate] is the result of the activation tool: the body
//     in <skill_content>, the skill's folder and at most 100 of its files,
//     listed breadth first without reading them and never outside the
//     skill; [ActivationTool] is the tool, its name an enum of the skills
//     the model may invoke, or nil when there is none.
//
// Where the specification is silent, these functions decide as follows:
//   - skill:// paths treat "\" as a separator on every host; a segment that
//     would become ".." if percent-decoded again (double encoding) is
//     PATH_TRAVERSAL; a file that exists but cannot be read is NOT_FOUND
//     with "Failed to read file: <path> (<CODE>)"; sourcePath is the cleaned
//     path asked for (a link keeps its name), not its realpath.
//   - listFiles skips names a skill:// URL cannot address (holding "\" or
//     invalid UTF-8), does not enter a linked folder already on the walk
//     (a loop), and skips unreadable subfolders silently.
//   - renderPrompt puts names and descriptions on one line (whitespace runs
//     become a space); in markdown a description line that would open a
//     block (heading, fence, HTML block, quote, list item, thematic break,
//     table row) gets one backslash escape (S46), and names stay literal
//     (the model types them in skill:// URLs). It returns "" when there is
//     no skill. The S53 budget cuts descriptions to one common cap of at
//     least 80 characters; past that it drops skills by priority (custom,
//     then the reverse of [SourceOrder], claude-plugins and codex counted
//     user before project), then gives the skills kept the largest cap that
//     fits ([RenderPrompt] has the algorithm).
//   - contextFiles counts depth in path levels (a skipped home still
//     counts), treats blank, unreadable or non-file candidates as absent,
//     and compares content exactly for the S39 dedupe.
//   - a skill left out of the prompt by disable-model-invocation (S47) is
//     not reported in omitted, which says what the budget or a missing read
//     tool cut: the skill was never meant for the model.
//   - explain lists the loaded copy first, then the shadowed ones in S27
//     order, each with an outcome (loaded, shadowed, duplicate, disabled,
//     source-off, ignored, not-included, link-outside, untrusted) and a
//     reason in words; a name found nowhere is UNKNOWN_SKILL.
//
// # Discovering again
//
// A host that discovers again and again reuses what it can, never at the
// cost of a byte of the result: [FrontmatterCache] keeps parsed
// frontmatters by their bytes, and wire's Session keeps what a discovery
// asked its FS and was answered (package internal/record), so that it can
// tell that the same discovery now would give the same result (a read
// asked again as its file's version, [Versioner], when that version stands
// for the bytes read).
//
// # Cancellation
//
// The operations that read the filesystem ([Discover], [ScanDir],
// [Resolve], [ListFiles], [Validate], [ContextFiles], [ExpandCommand]) take
// a context first. They check it before they read anything and then
// between roots, skills, folders and files, so a done context stops them
// within a few filesystem calls; the error wraps ctx.Err() (errors.Is(err,
// context.Canceled) or context.DeadlineExceeded holds) and no partial
// result is returned. The operations on skills already found ([Match],
// [Explain], [RenderPrompt], [Commands]) read nothing and take none.
//
// # Calling the engine as data
//
// This package is the Go API only. The JSON form of a call (a request in,
// a reply out, SPEC section 12) is package wire: the one entry point of the
// wasm module, the JS package and the conformance corpus, so every runtime
// runs exactly the same decoding and encoding.
package core
