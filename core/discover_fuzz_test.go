package core_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gobwas/glob"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/internal/corpus"
	"github.com/skilldex/skilldex/wire"
)

// FuzzDiscover runs whole discovery (SPEC sections 3 to 5) over random
// in-memory trees built from the fuzz input: skills in every
// provider's roots, the claude-plugins registry, custom directories and an
// extra provider; symlinked copies, loops, dangling links and long link
// chains; name collisions; bad YAML, binary bytes, deep nesting, oversized
// and unclosed frontmatter; hidden and nested entries; odd bytes in names;
// a file or a loop where a root should be; injected EACCES/EIO/ENOENT/ELOOP/
// ENOTDIR/EFBIG faults; random options and filters.
//
// The oracle:
//   - Discover never panics, and through wire.Call the same request gives
//     the same bytes (no INTERNAL error);
//   - nothing is lost: every well-formed skill placed in a scanned root is in
//     skills, or in shadowed with the reason the filters give (S24) or,
//     when none applies, with reason name or realpath and a winner that is
//     loaded with the same name or the same realpath (S25, S27);
//   - placed things that are no skill (hidden, nested, disabled, empty,
//     over a limit, unreadable, lowercase skill.md, unscanned roots) are
//     nowhere in the result; unreadable ones are reported with their path
//     and code, loops and dangling links silently (S11, S12);
//   - every root that cannot be listed for another reason than ENOENT is
//     reported with its path and code (S12); the plugin registry's
//     problems are reported (S20);
//   - the result is well formed: unique loaded names and realpaths, S15
//     order, known shadow reasons, winners that are loaded;
//   - deterministic (S42): a second call, two calls with a frontmatter
//     cache, and a call through an FS that lists directories in a shuffled
//     order and has no PrefixReader, give the same bytes.
func FuzzDiscover(f *testing.F) {
	for _, s := range discoverSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		w := newFuzzWorld(data)
		w.build()
		w.check(t)
	})
}

// fuzzIn hands out the fuzz input a byte at a time; past its end it gives
// zeros.
type fuzzIn struct {
	data []byte
	i    int
}

func (r *fuzzIn) more() bool { return r.i < len(r.data) }

func (r *fuzzIn) byte() byte {
	if r.i >= len(r.data) {
		return 0
	}
	b := r.data[r.i]
	r.i++
	return b
}

func (r *fuzzIn) intn(n int) int { return int(r.byte()) % n }

func (r *fuzzIn) bytes(max int) []byte {
	n := r.intn(max + 1)
	if r.i+n > len(r.data) {
		n = len(r.data) - r.i
	}
	b := r.data[r.i : r.i+n]
	r.i += n
	return b
}

// fuzzCtx is a load context with its S16 project ancestors, which the
// generator keeps stable (it never writes a .git).
type fuzzCtx struct {
	cwd, home string
	gitDir    string // created up front when set
	gitFile   bool   // .git is a file (a worktree) rather than a folder
	ancestors []string
}

var fuzzCtxs = []fuzzCtx{
	{cwd: "/w/repo/sub", home: "/home/u", gitDir: "/w/repo/.git", ancestors: []string{"/w/repo/sub", "/w/repo"}},
	{cwd: "/home/u/proj/x", home: "/home/u", ancestors: []string{"/home/u/proj/x", "/home/u/proj"}},
	{cwd: "/home/u", home: "/home/u"},
	{cwd: "/w/repo", home: "/home/u", gitDir: "/w/repo/.git", gitFile: true, ancestors: []string{"/w/repo"}},
}

// Filter vocabularies (S24); the names of placed skills are n0..n7 (from
// frontmatter), v<k>/w<k> (entry names) and p:/q:/c: prefixed plugin names.
var (
	fuzzGlobs    = []string{"n1", "n2*", "!n3", "*", "p:*", "[", "n?", "{n1,n4}", "v*", "c:*", `x\`, "!*", "w*", "*:n5"}
	fuzzDisabled = []string{"skill:n1", "skill:p:n2", "skill:n5", "skill:v1", "skill:", "n6"}
	fuzzCustom   = []string{"/custom/a", "~/cust", "rel", "/custom/a", "~/.claude/skills", "~", "/custom/b/", "/", "~/"}
)

const registryPath = "/home/u/.claude/plugins/installed_plugins.json"

// fuzzSlot is one scan of one root by one source.
type fuzzSlot struct {
	root        string
	provider    string
	level       string
	display     string
	requireDesc bool
	prefix      string // "<plugin>:" for claude-plugins
	plugin      bool   // needs the registry as written
}

func (s fuzzSlot) source() string { return s.provider + ":" + s.level }

// fuzzSkill is a SKILL.md placed in a root whose outcome the oracle knows.
type fuzzSkill struct {
	root, entry string
	file        string // root/entry/SKILL.md
	content     []byte // what file must read back as for the expectation to stand
	name        string // frontmatter name, or "" for the entry name
	description string
	// present: a skill in every slot of root (subject to requireDesc when
	// noDesc); otherwise it must be in no slot.
	present bool
	noDesc  bool // no description: absent from requireDescription slots
	// warn: when absent, a warning holding this text is due in an enabled
	// slot, once the engine reaches the operation faultOp (or, without
	// one, reads content); silent: no warning may name file.
	warn    string
	faultOp string
	silent  bool
}

type fuzzFault struct{ op, path, code string }

type fuzzWorld struct {
	in    *fuzzIn
	fs    *memfs.FS
	ctx   fuzzCtx
	opts  core.Options
	slots []fuzzSlot
	// roots are the scanned roots then some that are never scanned; the
	// generator places things in both.
	roots     []string
	unscanned map[string]bool
	registry  []byte // as written; nil: none written
	regMode   int
	skills    []*fuzzSkill
	faults    []fuzzFault
	seq       int
	bigOnce   bool
	// rootChecks are roots whose listing must give no skill-file warning
	// about any entry (loops in them were placed by kind).
}

func newFuzzWorld(data []byte) *fuzzWorld {
	in := &fuzzIn{data: data}
	w := &fuzzWorld{in: in, fs: memfs.New(), unscanned: map[string]bool{}}
	w.ctx = fuzzCtxs[in.intn(len(fuzzCtxs))]
	opts := core.DefaultOptions()
	toggles := in.byte()
	opts.DisableCodexUser = toggles&1 != 0
	opts.DisableClaudeUser = toggles&2 != 0
	opts.DisableClaudeProject = toggles&4 != 0
	opts.DisablePiUser = toggles&8 != 0
	opts.DisablePiProject = toggles&16 != 0
	flags := in.byte()
	if flags == 0xFF {
		opts.Disabled = true
	}
	if flags&1 != 0 {
		opts.ConfigDirName = ".pi"
	}
	if flags&2 != 0 {
		// It scans .opencode/skills, as the built-in opencode row does at
		// cwd (S62): two providers reaching one root.
		opts.ExtraProviders = []core.Provider{{ID: "acme", DisplayName: "Acme",
			Priority: []int{90, 70, 10, 100}[flags>>3&3], RequireDescription: flags&4 != 0,
			UserDirs: []string{".opencode/skills"}, ProjectDirs: []string{".opencode/skills"}}}
	}
	w.regMode = in.intn(8)
	for range in.intn(3) {
		opts.IgnoredSkills = append(opts.IgnoredSkills, fuzzGlobs[in.intn(len(fuzzGlobs))])
	}
	for range max(0, in.intn(5)-2) {
		opts.IncludeSkills = append(opts.IncludeSkills, fuzzGlobs[in.intn(len(fuzzGlobs))])
	}
	for range in.intn(3) {
		opts.DisabledExtensions = append(opts.DisabledExtensions, fuzzDisabled[in.intn(len(fuzzDisabled))])
	}
	for range in.intn(3) {
		opts.CustomDirectories = append(opts.CustomDirectories, fuzzCustom[in.intn(len(fuzzCustom))])
	}
	w.opts = opts
	w.computeSlots()
	return w
}

// computeSlots lists the roots Discover scans for the context and options,
// in the terms of SPEC section 4 (not by calling the code under test).
func (w *fuzzWorld) computeSlots() {
	home, cwd, cfg := w.ctx.home, w.ctx.cwd, w.opts.ConfigDirName
	add := func(root, provider, display, level string, req bool) {
		w.slots = append(w.slots, fuzzSlot{root: root, provider: provider, display: display, level: level, requireDesc: req})
	}
	add(home+"/"+cfg+"/agent/skills", "native", "xcsh", "user", true)
	add(home+"/.claude/skills", "claude", "Claude Code", "user", false)
	add(home+"/.agent/skills", "agents", "Agents", "user", false)
	add(home+"/.agents/skills", "agents", "Agents", "user", false)
	add(home+"/.codex/skills", "codex", "Codex", "user", false)
	for _, a := range w.ctx.ancestors {
		add(a+"/"+cfg+"/skills", "native", "xcsh", "project", true)
		add(a+"/.claude/skills", "claude", "Claude Code", "project", false)
		add(a+"/.agent/skills", "agents", "Agents", "project", false)
		add(a+"/.agents/skills", "agents", "Agents", "project", false)
	}
	if len(w.ctx.ancestors) > 0 {
		add(cwd+"/.codex/skills", "codex", "Codex", "project", false)
	}
	// S62: opencode (user, then cwd) and github (cwd only).
	add(home+"/.config/opencode/skills", "opencode", "OpenCode", "user", false)
	if len(w.ctx.ancestors) > 0 {
		add(cwd+"/.opencode/skills", "opencode", "OpenCode", "project", false)
		add(cwd+"/.github/skills", "github", "GitHub Copilot", "project", true)
	}
	for _, p := range w.opts.ExtraProviders {
		add(home+"/.opencode/skills", p.ID, p.DisplayName, "user", p.RequireDescription)
		for _, a := range w.ctx.ancestors {
			add(a+"/.opencode/skills", p.ID, p.DisplayName, "project", p.RequireDescription)
		}
	}
	// S20: the registry's entries, by mode.
	plugin := func(id, install, level string) {
		w.slots = append(w.slots, fuzzSlot{root: install + "/skills", provider: "claude-plugins",
			display: "Claude Code plugins", level: level, prefix: id + ":", plugin: true})
	}
	never := []string{"/plug/r/skills", "/plug/s/skills", "/plug/t/skills"}
	switch w.regMode {
	case 1:
		w.registry = []byte(`{"version":2,"plugins":{` +
			`"p@m":[{"scope":"user","installPath":"/plug/p"}],` +
			`"q@m":[{"scope":"project","installPath":"/plug/q","projectPath":"` + cwd + `"}],` +
			`"r@m":[{"scope":"user","installPath":"/plug/r","enabled":false}],` +
			`"s@m":[{"scope":"local","installPath":"/plug/s","projectPath":"/elsewhere"}],` +
			`"t@m":[{"scope":"user","installPath":"rel/t"}],` +
			`"bad":[{"scope":"user","installPath":"/plug/bad"}],` +
			`"c@x@m":[{"scope":"user","installPath":"` + home + `/.claude"}]}}`)
		plugin("p", "/plug/p", "user")
		plugin("q", "/plug/q", "project")
		plugin("c@x", home+"/.claude", "user")
		never = append(never, "/plug/bad/skills")
	case 2:
		w.registry = []byte(`{"version":2,"plugins":{"p@m":[{"installPath":"/plug/p"`)
		never = append(never, "/plug/p/skills")
	case 3:
		_ = w.fs.Mkdir(registryPath) // a folder: EISDIR
		never = append(never, "/plug/p/skills")
	case 4:
		w.registry = []byte(`{"plugins":[1,2]}`)
		never = append(never, "/plug/p/skills")
	case 5:
		w.registry = []byte(`{"plugins":{"p@m":[{"scope":"user","installPath":"/plug/p"},` +
			`{"scope":"project","installPath":"/plug/p/","projectPath":"/"}]}}`)
		// The project entry names the folder the user entry names: it is
		// dropped before scanning (each folder is scanned once).
		plugin("p", "/plug/p", "user")
	case 6:
		w.registry = []byte(`{"plugins":{"p@m":[{"scope":"user","installPath":"/plug/p"}]}}`)
		w.faults = append(w.faults, fuzzFault{"readFile", registryPath, core.EACCES})
		never = append(never, "/plug/p/skills")
	default:
		never = append(never, "/plug/p/skills")
	}
	for _, d := range w.opts.CustomDirectories {
		root := d
		switch {
		case d == "~":
			root = home
		case strings.HasPrefix(d, "~/"):
			root = path.Join(home, d[2:])
		case !strings.HasPrefix(d, "/"):
			root = path.Join(cwd, d)
		}
		add(path.Clean(root), "custom", "Custom", "user", true)
	}
	// S63: managed skills, after the custom directories.
	add(home+"/"+cfg+"/agent/managed-skills", "managed", "Managed skills", "user", true)
	// Never scanned: below cwd, codex, opencode and github above cwd,
	// plugins not applying.
	never = append(never, cwd+"/deeper/.claude/skills", "/w/repo/.codex/skills", "/elsewhere/.claude/skills",
		"/w/repo/.github/skills", "/w/repo/.opencode/skills", home+"/.github/skills")
	if w.opts.Disabled {
		w.slots = nil // S22: nothing is scanned
	}
	seen := map[string]bool{}
	for _, s := range w.slots {
		if !seen[s.root] {
			seen[s.root] = true
			w.roots = append(w.roots, s.root)
		}
	}
	for _, r := range never {
		if !seen[r] {
			seen[r] = true
			w.roots = append(w.roots, r)
			w.unscanned[r] = true
		}
	}
	if w.ctx.gitDir != "" {
		if w.ctx.gitFile {
			_ = w.fs.WriteFile(w.ctx.gitDir, []byte("gitdir: /elsewhere\n"))
		} else {
			_ = w.fs.Mkdir(w.ctx.gitDir)
		}
	}
	if w.registry != nil {
		_ = w.fs.WriteFile(registryPath, w.registry)
	}
	_ = w.fs.Mkdir(w.ctx.cwd)
}

func (w *fuzzWorld) next(prefix string) string {
	w.seq++
	return prefix + strconv.Itoa(w.seq)
}

func (w *fuzzWorld) pickRoot() string { return w.roots[w.in.intn(len(w.roots))] }

// validSkill returns a well-formed SKILL.md in one of several spellings,
// its frontmatter name ("" when it has none) and description.
func (w *fuzzWorld) validSkill() (content []byte, name, desc string) {
	in := w.in
	b := in.byte()
	desc = "d" + strconv.Itoa(w.seq)
	if b&1 == 0 {
		name = "n" + strconv.Itoa(int(b>>1)%8)
	}
	var lines []string
	if name != "" {
		lines = append(lines, []string{"name: " + name, `name: "` + name + `"`, "name: '  " + name + "  '"}[in.intn(3)])
	}
	lines = append(lines, []string{"description: " + desc, `description: "` + desc + `"`, "description: '" + desc + "'"}[in.intn(3)])
	switch in.intn(4) {
	case 1:
		lines = append(lines, "globs:\n  - \"*.go\"", "alwaysApply: true")
	case 2:
		lines = append(lines, "metadata: {a: [1, 2, {b: c}]}", "enabled: true")
	case 3:
		lines = append(lines, "license: MIT # comment")
	}
	if in.intn(2) == 0 {
		slices.Reverse(lines)
	}
	text := "---\n" + strings.Join(lines, "\n") + "\n---\n# Body\n\nUse it.\n"
	switch in.intn(6) {
	case 1:
		text = strings.ReplaceAll(text, "\n", "\r\n")
	case 2:
		text = "\xEF\xBB\xBF" + text
	case 3:
		text = "\n\n  " + text
	case 4:
		text = strings.ReplaceAll(text, "\n", "\r")
	}
	return []byte(text), name, desc
}

// place writes a valid skill into root/entry and records it as present.
func (w *fuzzWorld) place(root, entry string) *fuzzSkill {
	content, name, desc := w.validSkill()
	file := joinPath(root, entry) + "/SKILL.md"
	_ = w.fs.WriteFile(file, content)
	s := &fuzzSkill{root: root, entry: entry, file: file, content: content, name: name, description: desc, present: true}
	w.skills = append(w.skills, s)
	return s
}

func (w *fuzzWorld) build() {
	in := w.in
	for ops := 0; in.more() && ops < 40; ops++ {
		switch in.intn(12) {
		case 0, 1: // S10, S11: a well-formed skill
			w.place(w.pickRoot(), w.next("v"))
		case 2: // S25: a symlinked copy of a placed skill (absolute or relative)
			if len(w.skills) == 0 {
				continue
			}
			src := w.skills[in.intn(len(w.skills))]
			if !src.present || src.noDesc {
				continue
			}
			root, entry := w.pickRoot(), w.next("v")
			target := joinPath(src.root, src.entry)
			if in.intn(2) == 0 {
				target = relPath(root, target)
			}
			if w.fs.Symlink(target, joinPath(root, entry)) != nil {
				continue
			}
			w.skills = append(w.skills, &fuzzSkill{root: root, entry: entry, file: joinPath(root, entry) + "/SKILL.md",
				content: src.content, name: src.name, description: src.description, present: true})
		case 3:
			w.hostileContent()
		case 4:
			w.links()
		case 5: // S11: hidden entries are skipped
			root, entry := w.pickRoot(), "."+w.next("h")
			s := w.place(root, entry)
			s.present, s.silent = false, true
		case 6: // S10: nested skills are never discovered
			root := w.pickRoot()
			group := w.next("g")
			s := w.place(joinPath(root, group), "inner")
			s.present, s.silent = false, true
			if in.intn(2) == 0 { // and the group itself may be a skill
				w.place(root, group)
			}
		case 7:
			w.rootTrouble()
		case 8: // odd bytes in an entry name: invalid UTF-8, controls, quotes
			name := strings.ReplaceAll(string(in.bytes(12)), "/", "_")
			w.place(w.pickRoot(), w.next("w")+name)
		case 9:
			w.faultyEntry()
		case 10: // things that look like skills and are not (S11)
			root, entry := w.pickRoot(), w.next("x")
			content, _, _ := w.validSkill()
			file := joinPath(root, entry) + "/SKILL.md"
			switch in.intn(5) {
			case 0: // a file entry
				_ = w.fs.WriteFile(joinPath(root, entry), content)
			case 1: // lowercase name
				_ = w.fs.WriteFile(joinPath(root, entry)+"/skill.md", content)
			case 2: // SKILL.md is a folder
				_ = w.fs.WriteFile(file+"/SKILL.md", content)
			case 3: // SKILL.md in the root itself
				_ = w.fs.WriteFile(joinPath(root, "SKILL.md"), content)
				continue
			case 4: // enabled: false (S9)
				content = []byte("---\nname: n1\ndescription: d\nenabled: false\n---\n")
				_ = w.fs.WriteFile(file, content)
			}
			w.skills = append(w.skills, &fuzzSkill{root: root, entry: entry, file: file, silent: true})
		case 11: // a deep folder chain inside a skill (no effect on discovery)
			s := w.place(w.pickRoot(), w.next("v"))
			deep := joinPath(s.root, s.entry)
			for range in.intn(64) {
				deep += "/d"
			}
			_ = w.fs.WriteFile(deep+"/SKILL.md", []byte("---\nname: deep\n---\n"))
		}
	}
}

// hostileContent writes a SKILL.md that parses badly or is over a limit.
func (w *fuzzWorld) hostileContent() {
	in := w.in
	root, entry := w.pickRoot(), w.next("h")
	file := joinPath(root, entry) + "/SKILL.md"
	s := &fuzzSkill{root: root, entry: entry, file: file}
	var content []byte
	switch in.intn(12) {
	case 0: // raw bytes: binary, bad YAML, anything
		content = in.bytes(64)
		s = nil
	case 1: // raw bytes inside delimiters: bad YAML recovered (S7) or not
		content = append(append([]byte("---\n"), in.bytes(64)...), "\n---\nbody\n"...)
		s = nil
	case 2: // S6: nesting far over the limit, flow and block style
		d := 9000
		if in.intn(2) == 0 {
			content = []byte("---\nname: n0\ndescription: d\na: " + strings.Repeat("[", d) + strings.Repeat("]", d) + "\n---\n")
		} else {
			content = []byte("---\nname: n0\ndescription: d\na:\n" + strings.Repeat("- ", d) + "x\n---\n")
		}
		s.warn = ": frontmatter is nested deeper than 64 levels"
	case 3: // S6: nesting around the limit
		d := 58 + in.intn(12)
		content = []byte("---\nname: n0\ndescription: d\na: " + strings.Repeat("{a: ", d) + "1" + strings.Repeat("}", d) + "\n---\n")
		s = nil
	case 4: // over 64 KiB of frontmatter
		if w.bigOnce {
			return
		}
		w.bigOnce = true
		content = []byte("---\nname: n0\ndescription: d\nk: " + strings.Repeat("a", 70<<10) + "\n---\n")
		s.warn = ": frontmatter is larger than 64 KiB"
	case 5: // a frontmatter still open after 128 KiB
		if w.bigOnce {
			return
		}
		w.bigOnce = true
		content = []byte("---\nname: n0\ndescription: d\n" + strings.Repeat("k: v\n", 27000))
		s.warn = ": frontmatter is not closed within the first 128 KiB"
	case 6: // S4: empty
	case 7: // S4: a BOM and nothing else
		content = []byte("\xEF\xBB\xBF")
	case 8: // no description: a skill where it is not required (S14)
		content = []byte("---\nname: n2\n---\nbody\n")
		s.present, s.noDesc, s.name, s.content = true, true, "n2", content
	case 9: // S6: a sequence: {} and a warning; the entry name, no description
		content = []byte("---\n- a\n- b\n---\nbody\n")
		s.present, s.noDesc, s.content = true, true, content
	case 10: // S6: an exponential alias graph
		content = []byte("---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
			"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n" +
			"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n---\n")
		s = nil
	case 11: // binary bytes with NUL: no frontmatter, so the entry name
		content = []byte("\x00\x01\x02\xff\xfe\x7fELF\x00\n\x00")
		s.present, s.noDesc, s.content = true, true, content
	}
	_ = w.fs.WriteFile(file, content)
	if s != nil {
		if s.warn != "" {
			s.content = content
		}
		w.skills = append(w.skills, s)
	}
}

// links places symlinks in a root (S11): loops, dangling links, links to
// files, long chains, SKILL.md links.
func (w *fuzzWorld) links() {
	in := w.in
	root, entry := w.pickRoot(), w.next("l")
	link := joinPath(root, entry)
	file := link + "/SKILL.md"
	silent := &fuzzSkill{root: root, entry: entry, file: file, silent: true}
	switch in.intn(9) {
	case 0: // a link to itself
		_ = w.fs.Symlink(entry, link)
	case 1: // two links pointing at each other
		_ = w.fs.Symlink(entry+"b", link)
		_ = w.fs.Symlink(entry, link+"b")
	case 2: // dangling
		_ = w.fs.Symlink("/nowhere/"+entry, link)
	case 3: // a link to a file
		_ = w.fs.WriteFile("/store/"+entry, []byte("---\nname: n1\ndescription: d\n---\n"))
		_ = w.fs.Symlink("/store/"+entry, link)
	case 4: // a link to the root's parent (no SKILL.md there)
		_ = w.fs.Symlink("..", link)
		silent = nil
	case 5: // SKILL.md is a link to a well-formed file elsewhere in its root (S43 allows it): a skill
		content, name, desc := w.validSkill()
		_ = w.fs.WriteFile(root+"/.store/"+entry+".md", content)
		_ = w.fs.Symlink(root+"/.store/"+entry+".md", file)
		w.skills = append(w.skills, &fuzzSkill{root: root, entry: entry, file: file, content: content,
			name: name, description: desc, present: true})
		return
	case 6: // SKILL.md is a dangling link
		_ = w.fs.Symlink("gone.md", file)
	case 7: // SKILL.md is a link to itself
		_ = w.fs.Symlink("SKILL.md", file)
	case 8: // a chain of links to a skill: ELOOP past 40 links
		n := 1 + in.intn(48)
		content, name, desc := w.validSkill()
		_ = w.fs.WriteFile("/store/"+entry+"/SKILL.md", content)
		prev := "/store/" + entry
		for i := n - 1; i >= 1; i-- {
			hop := "/chain/" + entry + "/" + strconv.Itoa(i)
			_ = w.fs.Symlink(prev, hop)
			prev = hop
		}
		_ = w.fs.Symlink(prev, link)
		s := &fuzzSkill{root: root, entry: entry, file: file, content: content, name: name, description: desc, present: true}
		if _, err := w.fs.Stat(link); err != nil {
			s = &fuzzSkill{root: root, entry: entry, file: file, silent: true}
		}
		w.skills = append(w.skills, s)
		return
	}
	if silent != nil {
		w.skills = append(w.skills, silent)
	}
}

// rootTrouble puts something other than a folder where a root should be,
// or aliases two roots (S12, S25).
func (w *fuzzWorld) rootTrouble() {
	in := w.in
	root := w.pickRoot()
	switch in.intn(6) {
	case 0: // a file where the root is expected: ENOTDIR
		_ = w.fs.WriteFile(root, []byte("not a folder"))
	case 1: // a file where the root's parent is expected: ENOTDIR
		_ = w.fs.WriteFile(path.Dir(root), []byte("not a folder"))
	case 2: // a loop: ELOOP
		_ = w.fs.Symlink(path.Base(root), root)
	case 3: // dangling: ENOENT, silently
		_ = w.fs.Symlink("/nowhere/root", root)
	case 4: // an alias of another root
		_ = w.fs.Symlink(w.pickRoot(), root)
	case 5: // a fault on listing the root
		w.faults = append(w.faults, fuzzFault{"readDir", root,
			[]string{core.EACCES, core.EIO, core.ENOTDIR, core.ELOOP, core.ENOENT}[in.intn(5)]})
	}
}

// faultyEntry places a well-formed skill and makes an operation on it fail.
func (w *fuzzWorld) faultyEntry() {
	in := w.in
	root, entry := w.pickRoot(), w.next("e")
	dir := joinPath(root, entry)
	file := dir + "/SKILL.md"
	content, _, _ := w.validSkill()
	s := &fuzzSkill{root: root, entry: entry, file: file, content: content}
	codes := []string{core.EACCES, core.EIO, core.ENOENT, core.ELOOP, core.ENOTDIR, core.EFBIG}
	code := codes[in.intn(len(codes))]
	switch in.intn(3) {
	case 0: // the SKILL.md cannot be looked at, so not opened either
		_ = w.fs.WriteFile(file, content)
		w.faults = append(w.faults, fuzzFault{"lstat", file, code}, fuzzFault{"readFile", file, code})
		s.faultOp = "lstat"
	case 1: // the SKILL.md cannot be read
		_ = w.fs.WriteFile(file, content)
		w.faults = append(w.faults, fuzzFault{"readFile", file, code})
		s.faultOp = "readFile"
	case 2: // a linked skill folder cannot be followed
		_ = w.fs.WriteFile("/store/"+entry+"/SKILL.md", content)
		_ = w.fs.Symlink("/store/"+entry, dir)
		w.faults = append(w.faults, fuzzFault{"stat", dir, code})
		s.faultOp = "stat"
	}
	// S11: missing, looping or through a file is no skill, silently, when
	// looking; anything else, and any failure to read, is reported.
	if s.faultOp != "readFile" && (code == core.ENOENT || code == core.ELOOP || code == core.ENOTDIR) {
		s.silent = true
	} else {
		s.warn = "Failed to read skill file: " + file + " (" + code + ")"
	}
	w.skills = append(w.skills, s)
}

// joinPath is dir/name as the scanner builds it (path.Join without
// cleaning name, which the generator keeps free of "/").
func joinPath(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// relPath is a relative symlink target from the directory dir to target.
func relPath(dir, target string) string {
	split := func(p string) []string {
		if p = strings.Trim(p, "/"); p == "" {
			return nil
		}
		return strings.Split(p, "/")
	}
	a, b := split(dir), split(target)
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	parts := slices.Repeat([]string{".."}, len(a)-i)
	parts = append(parts, b[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

// shuffledFS lists directories in a shuffled order and hides PrefixReader,
// so discovery takes its whole-file path (S11, S42).
type shuffledFS struct {
	core.FS
	rng *rand.Rand
}

func (s *shuffledFS) ReadDir(p string) ([]core.DirEntry, error) {
	ents, err := s.FS.ReadDir(p)
	s.rng.Shuffle(len(ents), func(i, j int) { ents[i], ents[j] = ents[j], ents[i] })
	return ents, err
}

func (w *fuzzWorld) faultFS() core.FS {
	var faults []corpus.Fault
	for _, f := range w.faults {
		faults = append(faults, corpus.Fault{Op: f.op, Path: f.path, Code: f.code})
	}
	return corpus.WithFaults(w.fs, faults)
}

// faultOn is the code injected for op on p: the last fault given wins, as
// in corpus.WithFaults.
func (w *fuzzWorld) faultOn(op, p string) string {
	code := ""
	for _, f := range w.faults {
		if f.op == op && f.path == p {
			code = f.code
		}
	}
	return code
}

// sourceOn is S23's toggle for a source.
func (w *fuzzWorld) sourceOn(s fuzzSlot) bool {
	o := w.opts
	switch s.source() {
	case "codex:user":
		return !o.DisableCodexUser
	case "claude:user":
		return !o.DisableClaudeUser
	case "claude:project":
		return !o.DisableClaudeProject
	case "native:user":
		return !o.DisablePiUser
	case "native:project":
		return !o.DisablePiProject
	case "custom:user":
		return true
	}
	return w.anyOn()
}

func (w *fuzzWorld) anyOn() bool {
	o := w.opts
	return !(o.DisableCodexUser && o.DisableClaudeUser && o.DisableClaudeProject && o.DisablePiUser && o.DisablePiProject)
}

// filterReason is S24's verdict on a name from a source, "" when it passes.
func (w *fuzzWorld) filterReason(name string, s fuzzSlot) string {
	match := func(patterns []string) bool {
		for _, p := range patterns {
			neg := strings.HasPrefix(p, "!")
			g, err := glob.Compile(strings.TrimPrefix(p, "!"))
			if err == nil && g.Match(name) != neg {
				return true
			}
		}
		return false
	}
	switch {
	case slices.Contains(w.opts.DisabledExtensions, "skill:"+name):
		return core.ReasonDisabled
	case !w.sourceOn(s):
		return core.ReasonSourceOff
	case match(w.opts.IgnoredSkills):
		return core.ReasonIgnored
	case len(w.opts.IncludeSkills) > 0 && !match(w.opts.IncludeSkills):
		return core.ReasonNotIncluded
	}
	return ""
}

// rootCode is what listing root gives the engine: the injected fault, or
// the memfs error code, or "".
func (w *fuzzWorld) rootCode(root string) string {
	if c := w.faultOn("readDir", root); c != "" {
		return c
	}
	_, err := w.fs.ReadDir(root)
	return core.POSIXCode(err)
}

// stands reports whether a placed skill is still what it was placed as:
// the build's later steps (a file or a link where its root should be, a
// fault) may have made it unreachable, which is no loss.
func (w *fuzzWorld) stands(s *fuzzSkill) bool {
	if w.rootCode(s.root) != "" || strings.HasPrefix(s.entry, ".") {
		return false
	}
	ents, _ := w.fs.ReadDir(s.root)
	if !slices.ContainsFunc(ents, func(e core.DirEntry) bool { return e.Name == s.entry }) {
		return false
	}
	dir := joinPath(s.root, s.entry)
	if t, err := w.fs.Stat(dir); err != nil || t != core.TypeDir {
		return false
	}
	if t, err := w.fs.Stat(s.file); err != nil || t != core.TypeFile {
		return false
	}
	data, err := w.fs.ReadFile(s.file)
	return err == nil && bytes.Equal(data, s.content)
}

func (w *fuzzWorld) realpath(p string) string {
	r, err := w.fs.Realpath(p)
	if err != nil {
		return p
	}
	return r
}

func (w *fuzzWorld) check(t *testing.T) {
	fsys := w.faultFS()
	res, err := core.Discover(context.Background(), fsys, w.ctx.cwd, w.ctx.home, w.opts)
	if err != nil {
		t.Fatalf("Discover: %v", err)
	}
	got := wire.AppendJSON(nil, res)
	if !json.Valid(got) {
		t.Fatalf("invalid JSON: %s", got)
	}

	// S42: the same bytes again, through Call, and with shuffled listings
	// and no PrefixReader.
	res2, _ := core.Discover(context.Background(), fsys, w.ctx.cwd, w.ctx.home, w.opts)
	if again := wire.AppendJSON(nil, res2); !bytes.Equal(again, got) {
		t.Fatalf("second call differs:\n%s\n%s", got, again)
	}
	// With a frontmatter cache: its first discovery fills it, the second
	// reads from it; both give the same bytes.
	cached := w.opts
	cached.FrontmatterCache = &core.FrontmatterCache{}
	for i := range 2 {
		res, _ := core.Discover(context.Background(), fsys, w.ctx.cwd, w.ctx.home, cached)
		if again := wire.AppendJSON(nil, res); !bytes.Equal(again, got) {
			t.Fatalf("discovery %d with a frontmatter cache differs:\n%s\n%s", i+1, got, again)
		}
	}
	h := fnv.New64a()
	h.Write(w.in.data)
	shuffled := &shuffledFS{FS: fsys, rng: rand.New(rand.NewPCG(h.Sum64(), 7))}
	res3, _ := core.Discover(context.Background(), shuffled, w.ctx.cwd, w.ctx.home, w.opts)
	if again := wire.AppendJSON(nil, res3); !bytes.Equal(again, got) {
		t.Fatalf("shuffled listing or whole-file reads differ:\n%s\n%s", got, again)
	}
	optsJSON := wire.AppendOptions(nil, &w.opts)
	req, _ := json.Marshal(map[string]any{"op": "discover", "cwd": w.ctx.cwd, "home": w.ctx.home,
		"options": json.RawMessage(optsJSON)})
	if viaCall := wire.Call(fsys, req); !bytes.Equal(viaCall, got) {
		t.Fatalf("Call differs:\n%s\n%s", got, viaCall)
	}

	if w.opts.Disabled {
		if len(res.Skills)+len(res.Warnings)+len(res.Shadowed) != 0 {
			t.Fatalf("S22: disabled, yet %s", got)
		}
		return
	}
	w.checkShape(t, res)
	w.checkSkills(t, res)
	w.checkWarnings(t, res)
	w.checkScanDir(t, fsys)
}

// checkScanDir scans every root the generator used on its own (S28:
// requireDescription, no filters, no dedupe), scanned by Discover or not.
func (w *fuzzWorld) checkScanDir(t *testing.T, fsys core.FS) {
	t.Helper()
	for _, root := range w.roots {
		res, err := core.ScanDir(context.Background(), fsys, root, "claude:project")
		if err != nil {
			t.Fatalf("ScanDir(%s): %v", root, err)
		}
		if again, _ := core.ScanDir(context.Background(), &shuffledFS{FS: fsys, rng: rand.New(rand.NewPCG(1, 2))}, root, "claude:project"); !bytes.Equal(wire.AppendJSON(nil, again), wire.AppendJSON(nil, res)) {
			t.Fatalf("S42: ScanDir(%s) depends on listing order or PrefixReader", root)
		}
		code := w.rootCode(root)
		rootWarn := slices.ContainsFunc(res.Warnings, func(x core.Warning) bool {
			return x.SkillPath == root && strings.HasPrefix(x.Message, "Failed to read skills directory: "+root+" (")
		})
		if want := code != "" && code != core.ENOENT; rootWarn != want ||
			want && !slices.ContainsFunc(res.Warnings, func(x core.Warning) bool {
				return x.SkillPath == root && x.Path == root && x.Code == core.DiagRootUnreadable && x.Severity == core.SeverityError &&
					x.Message == "Failed to read skills directory: "+root+" ("+code+")"
			}) {
			t.Fatalf("S28: ScanDir(%s) with listing code %q: warnings %+v", root, code, res.Warnings)
		}
		for _, s := range w.skills {
			if s.root != root {
				continue
			}
			i := slices.IndexFunc(res.Skills, func(x core.Skill) bool { return x.FilePath == s.file })
			switch {
			case !s.present || s.noDesc:
				if i >= 0 {
					t.Fatalf("S28: ScanDir(%s) loaded %s, which is no skill with a description", root, s.file)
				}
			case w.stands(s) && w.linksOutside(s.file, root, ""): // S43, ScanDir has no scope
				if i >= 0 {
					t.Fatalf("S43: ScanDir(%s) loaded %s, which links outside (%s)", root, s.file, w.realpath(s.file))
				}
			case w.stands(s):
				name := s.name
				if name == "" {
					name = s45Name(s.entry)
				}
				if i < 0 || res.Skills[i].Name != name || res.Skills[i].Description != s.description ||
					res.Skills[i].Source != "claude:project" {
					t.Fatalf("S28: ScanDir(%s) lost or mislabelled %s (%q): %+v", root, s.file, name, res.Skills)
				}
			}
			if s.warn != "" && w.reaches(s) && !slices.ContainsFunc(res.Warnings, func(x core.Warning) bool {
				return x.SkillPath == s.file && strings.Contains(x.Message, s.warn)
			}) {
				t.Fatalf("S28: ScanDir(%s): no warning about %s with %q: %+v", root, s.file, s.warn, res.Warnings)
			}
			if s.faultOp == "" && w.stands(s) {
				w.checkValidate(t, fsys, s, root, res)
			}
		}
	}
}

// checkValidate: validate of a standing skill's folder makes ScanDir's S43
// check of the same root (S40, S43): link-outside exactly when the SKILL.md
// links outside its folder and root, with the message of ScanDir's warning.
func (w *fuzzWorld) checkValidate(t *testing.T, fsys core.FS, s *fuzzSkill, root string, scan *core.ScanResult) {
	t.Helper()
	dir := path.Dir(s.file)
	v, err := core.Validate(context.Background(), fsys, dir)
	if err != nil {
		t.Fatalf("Validate(%s): %v", dir, err)
	}
	i := slices.IndexFunc(v.Diagnostics, func(d core.Diagnostic) bool { return d.Code == core.DiagLinkOutside })
	if outside := w.linksOutside(s.file, root, ""); (i >= 0) != outside {
		t.Fatalf("S43: Validate(%s) link-outside %v, want %v (%s): %+v", dir, i >= 0, outside, w.realpath(s.file), v.Diagnostics)
	}
	// S73: the same diagnostic, as data too.
	if i >= 0 && !slices.Contains(scan.Warnings, core.Warning{SkillPath: s.file, Diagnostic: v.Diagnostics[i]}) {
		t.Fatalf("S43: Validate(%s) says %q, ScanDir(%s) %+v", dir, v.Diagnostics[i].Message, root, scan.Warnings)
	}
}

// checkShape: the result is well formed (S15, S25, S27).
func (w *fuzzWorld) checkShape(t *testing.T, res *core.Result) {
	t.Helper()
	names := map[string]string{}
	reals := map[string]string{}
	for i, s := range res.Skills {
		if !strings.HasSuffix(s.FilePath, "/SKILL.md") || s.BaseDir != path.Dir(s.FilePath) || s.SourcePath != s.FilePath {
			t.Fatalf("bad paths in %+v", s)
		}
		if s.Source != s.Provider+":"+s.Level {
			t.Fatalf("bad source in %+v", s)
		}
		if other, ok := names[s.Name]; ok {
			t.Fatalf("S25: name %q loaded twice: %s and %s", s.Name, other, s.FilePath)
		}
		names[s.Name] = s.FilePath
		r := w.realpath(s.FilePath)
		if other, ok := reals[r]; ok {
			t.Fatalf("S25: realpath %s loaded twice: %s and %s", r, other, s.FilePath)
		}
		reals[r] = s.FilePath
		if i > 0 && s15Less(s.Name, s.FilePath, res.Skills[i-1].Name, res.Skills[i-1].FilePath) {
			t.Fatalf("S15: skills out of order at %d", i)
		}
	}
	for i, sh := range res.Shadowed {
		if i > 0 && s15Less(sh.Name, sh.FilePath, res.Shadowed[i-1].Name, res.Shadowed[i-1].FilePath) {
			t.Fatalf("S27: shadowed out of order at %d", i)
		}
		switch sh.Reason {
		case core.ReasonName:
			if names[sh.Name] != sh.Winner {
				t.Fatalf("S27: %+v lost its name to a skill that is not loaded under it", sh)
			}
		case core.ReasonRealpath:
			if w.realpath(sh.Winner) != w.realpath(sh.FilePath) || !slices.Contains(mapValues(names), sh.Winner) {
				t.Fatalf("S27: %+v lost to a winner of another realpath or not loaded", sh)
			}
		case core.ReasonDisabled, core.ReasonSourceOff, core.ReasonIgnored, core.ReasonNotIncluded:
			if sh.Winner != "" {
				t.Fatalf("S27: %+v has a winner", sh)
			}
		case core.ReasonLinkOutside: // S43: a SKILL.md whose link leads out of every boundary, not read
			if sh.Winner != "" || w.realpath(sh.FilePath) == sh.FilePath {
				t.Fatalf("S43: %+v has a winner, or its SKILL.md is reached through no link", sh)
			}
		default:
			t.Fatalf("S27: unknown reason in %+v", sh)
		}
	}
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func s15Less(nameA, fileA, nameB, fileB string) bool {
	if a, b := strings.ToLower(nameA), strings.ToLower(nameB); a != b {
		return a < b
	}
	if nameA != nameB {
		return nameA < nameB
	}
	return fileA < fileB
}

// checkSkills: nothing placed is lost, nothing that is no skill appears.
func (w *fuzzWorld) checkSkills(t *testing.T, res *core.Result) {
	t.Helper()
	for _, s := range w.skills {
		if w.unscanned[s.root] || !s.present {
			// No skill: nowhere in the result, whatever the source.
			for _, x := range res.Skills {
				if x.FilePath == s.file {
					t.Fatalf("%s is no skill here, yet loaded as %q (%s)", s.file, x.Name, x.Source)
				}
			}
			for _, x := range res.Shadowed {
				if x.FilePath == s.file {
					t.Fatalf("%s is no skill here, yet shadowed as %q (%s, %s)", s.file, x.Name, x.Source, x.Reason)
				}
			}
			continue
		}
		if !w.stands(s) {
			continue // a later step took its place: no claim either way
		}
		for _, slot := range w.slots {
			if slot.root != s.root || (slot.plugin && !w.pluginScanned(slot)) {
				continue
			}
			name := s.name
			if name == "" {
				name = s45Name(s.entry)
			}
			name = slot.prefix + name
			if slot.provider == "managed" && !managedName(name) {
				// S63: a name no agent gives a skill it writes: left
				// out, with a warning when the source is on.
				for _, x := range res.Skills {
					if x.FilePath == s.file && x.Source == slot.source() {
						t.Fatalf("S63: %s (%q) is no managed skill name, yet loaded", s.file, name)
					}
				}
				warned := slices.ContainsFunc(res.Warnings, func(x core.Warning) bool {
					return strings.Contains(x.Message, s.file+": ") && strings.Contains(x.Message, "is not a managed skill name")
				})
				if w.sourceOn(slot) && !s.noDesc && !w.slotLinksOutside(s.file, slot) && !warned {
					t.Fatalf("S63: no warning for %s, whose name %q is no managed skill name: %+v", s.file, name, res.Warnings)
				}
				continue
			}
			if slot.requireDesc && s.noDesc {
				for _, x := range res.Skills {
					if x.FilePath == s.file && x.Source == slot.source() {
						t.Fatalf("S14: %s has no description, yet loaded from %s", s.file, slot.source())
					}
				}
				continue
			}
			w.checkFound(t, res, s, slot, name)
		}
	}
}

// linksOutside reports whether file, a SKILL.md found in root, has a
// realpath outside every S43 boundary: its folder's realpath, the root's,
// and scope's ("" for none). A linked skill folder brings its SKILL.md's
// link along: a link that stays inside the folder's own root may still lead
// outside the root that found the folder.
func (w *fuzzWorld) linksOutside(file, root, scope string) bool {
	real := w.realpath(file)
	if real == file {
		return false
	}
	bounds := []string{w.realpath(path.Dir(file)), w.realpath(root)}
	if scope != "" {
		bounds = append(bounds, w.realpath(scope))
	}
	for _, b := range bounds {
		if real == b || strings.HasPrefix(real, strings.TrimSuffix(b, "/")+"/") {
			return false
		}
	}
	return true
}

// slotLinksOutside is linksOutside for a discovery's slot, with S43's
// scope of its source: for a plugin its installPath (the root's parent),
// for a project-level one the repository root when cwd is in one, else the
// directory whose config folder holds the root; for a user-level one home.
func (w *fuzzWorld) slotLinksOutside(file string, slot fuzzSlot) bool {
	scope := w.ctx.home
	switch {
	case slot.provider == "claude-plugins":
		scope = path.Dir(slot.root)
	case slot.level == "project" && w.ctx.gitDir != "":
		scope = path.Dir(w.ctx.gitDir)
	case slot.level == "project":
		if scope = path.Dir(path.Dir(slot.root)); scope == "/" {
			scope = ""
		}
	}
	return w.linksOutside(file, slot.root, scope)
}

// checkFound: the placed skill s, scanned by slot under name, is loaded or
// shadowed for a reason that holds.
func (w *fuzzWorld) checkFound(t *testing.T, res *core.Result, s *fuzzSkill, slot fuzzSlot, name string) {
	t.Helper()
	if w.slotLinksOutside(s.file, slot) {
		// S43: not read, so shadowed under its folder's name (a plugin's
		// prefixed, S20), before the filters.
		folder := slot.prefix + path.Base(path.Dir(s.file))
		for _, x := range res.Shadowed {
			if x.FilePath == s.file && x.Source == slot.source() && x.Name == folder && x.Reason == core.ReasonLinkOutside {
				return
			}
		}
		t.Fatalf("S43: %s (from %s) links outside every boundary (%s), yet is not shadowed link-outside as %q",
			s.file, slot.source(), w.realpath(s.file), folder)
	}
	want := w.filterReason(name, slot)
	for _, x := range res.Skills {
		if x.FilePath == s.file && x.Source == slot.source() && x.Name == name {
			if want != "" {
				t.Fatalf("S24: %s (%s) loaded although %s", s.file, name, want)
			}
			if x.Description != s.description || x.Provider != slot.provider || x.ProviderName != slot.display {
				t.Fatalf("%s: got description %q provider %q %q, want %q %q %q", s.file, x.Description,
					x.Provider, x.ProviderName, s.description, slot.provider, slot.display)
			}
			return
		}
	}
	for _, x := range res.Shadowed {
		if x.FilePath != s.file || x.Source != slot.source() || x.Name != name {
			continue
		}
		if want != "" && x.Reason != want {
			t.Fatalf("S24: %s (%s) shadowed for %s, want %s", s.file, name, x.Reason, want)
		}
		if want == "" && x.Reason != core.ReasonName && x.Reason != core.ReasonRealpath {
			t.Fatalf("S24: %s (%s) filtered (%s) although no filter applies", s.file, name, x.Reason)
		}
		return
	}
	t.Fatalf("lost: %s as %q from %s (root %s) is neither loaded nor shadowed", s.file, name, slot.source(), slot.root)
}

// registryStands reports whether the plugin registry reads as written.
func (w *fuzzWorld) registryStands() bool {
	if w.faultOn("readFile", registryPath) != "" {
		return false
	}
	data, err := w.fs.ReadFile(registryPath)
	return err == nil && bytes.Equal(data, w.registry)
}

// pluginScanned reports whether the plugin slot is scanned: the registry
// reads as written, and no plugin before it in the registry has a skills
// folder with the same realpath (or, without one, the same path). Each
// folder is scanned once, for the first entry that names it:
// a later one would find the same files again.
func (w *fuzzWorld) pluginScanned(slot fuzzSlot) bool {
	if !w.registryStands() {
		return false
	}
	key := func(root string) string {
		if w.faultOn("realpath", root) != "" {
			return root
		}
		return w.realpath(root)
	}
	for _, s := range w.slots {
		if s == slot {
			return true
		}
		if s.plugin && key(s.root) == key(slot.root) {
			return false
		}
	}
	return true
}

// checkWarnings: what cannot be read is reported with its path and code;
// what is not there is not (S11, S12, S20).
func (w *fuzzWorld) checkWarnings(t *testing.T, res *core.Result) {
	t.Helper()
	has := func(subs ...string) bool {
		return slices.ContainsFunc(res.Warnings, func(x core.Warning) bool {
			for _, sub := range subs {
				if !strings.Contains(x.Message, sub) {
					return false
				}
			}
			return true
		})
	}
	for _, slot := range w.slots {
		if !w.sourceOn(slot) || (slot.plugin && !w.pluginScanned(slot)) {
			continue
		}
		code := w.rootCode(slot.root)
		msg := "Failed to read skills directory: " + slot.root + " ("
		switch {
		case code != "" && code != core.ENOENT && !has(msg+code+")"):
			t.Fatalf("S12: no warning for root %s (%s): %+v", slot.root, code, res.Warnings)
		case (code == "" || code == core.ENOENT) && has(msg):
			t.Fatalf("S12: warning for root %s that lists fine or is missing: %+v", slot.root, res.Warnings)
		}
	}
	for _, s := range w.skills {
		if w.unscanned[s.root] || w.rootCode(s.root) != "" {
			continue
		}
		on := slices.ContainsFunc(w.slots, func(sl fuzzSlot) bool {
			return sl.root == s.root && w.sourceOn(sl) && (!sl.plugin || w.pluginScanned(sl))
		})
		switch {
		case s.warn != "" && on && w.reaches(s):
			if !has(s.file, s.warn) {
				t.Fatalf("no warning about %s with %q: %+v", s.file, s.warn, res.Warnings)
			}
		case s.silent:
			if has(s.file) {
				t.Fatalf("S11: %s should be skipped silently: %+v", s.file, res.Warnings)
			}
		}
	}
	if !w.anyOn() {
		return
	}
	switch code := core.POSIXCode(w.registryErr()); {
	case code != "" && code != core.ENOENT:
		if !has("[Claude Code plugins] Failed to read plugin registry: " + registryPath + " (" + code + ")") {
			t.Fatalf("S20: no warning for the registry (%s): %+v", code, res.Warnings)
		}
	case code == "" && (w.regMode == 2 || w.regMode == 4) && w.registryStands():
		if !has("[Claude Code plugins] Failed to parse plugin registry: " + registryPath) {
			t.Fatalf("S20: no parse warning for the registry: %+v", res.Warnings)
		}
	case code == "" && w.regMode == 1 && w.registryStands():
		if !has("[Claude Code plugins] Invalid plugin ID format (missing @marketplace): bad") {
			t.Fatalf("S20: no warning for the plugin id without @: %+v", res.Warnings)
		}
	}
}

// reaches reports whether discovery gets as far as the operation that
// fails for s (or, without a fault, as reading its content as written):
// later steps of the build may have put something else in its way.
func (w *fuzzWorld) reaches(s *fuzzSkill) bool {
	if w.rootCode(s.root) != "" {
		return false
	}
	ents, _ := w.fs.ReadDir(s.root)
	i := slices.IndexFunc(ents, func(e core.DirEntry) bool { return e.Name == s.entry })
	if i < 0 {
		return false
	}
	dir := joinPath(s.root, s.entry)
	switch typ := ents[i].Type; {
	case s.faultOp == "stat":
		return typ == core.TypeSymlink
	case typ == core.TypeSymlink:
		if t, err := w.fs.Stat(dir); err != nil || t != core.TypeDir {
			return false
		}
	case typ != core.TypeDir:
		return false
	}
	if s.faultOp == "lstat" {
		return true
	}
	data, err := w.fs.ReadFile(s.file)
	return err == nil && bytes.Equal(data, s.content)
}

func (w *fuzzWorld) registryErr() error {
	if c := w.faultOn("readFile", registryPath); c != "" {
		return &core.PathError{Op: "readFile", Path: registryPath, Code: c}
	}
	_, err := w.fs.ReadFile(registryPath)
	return err
}

// discoverSeeds are inputs reaching each generator branch: hand-made
// headers (contexts, toggles, filters, registry modes) followed by op
// bytes from a fixed PRNG; testdata/fuzz/FuzzDiscover adds more.
func discoverSeeds() [][]byte {
	rng := rand.New(rand.NewPCG(7, 11))
	ops := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	headers := [][]byte{
		// ctx, toggles, flags, registry mode, then counts and picks of
		// ignoredSkills, includeSkills, disabledExtensions, customDirectories
		{0, 0, 0, 1, 0, 0, 0, 0},
		{1, 0, 0, 1, 0, 0, 0, 0},
		{2, 0, 0, 1, 0, 0, 0, 0},
		{3, 0, 0, 1, 0, 0, 0, 0},
		{0, 0b00101, 0b01010, 5, 2, 1, 3, 4, 2, 0, 2, 1, 4, 2, 0, 1},
		{1, 0b11111, 1, 6, 0, 0, 0, 2, 5, 6},
		{2, 0, 0xFF, 1, 0, 0, 0, 0},
		{3, 0b10010, 0b00110, 3, 1, 6, 3, 0, 2, 7, 8, 0},
		{0, 0, 2, 2, 0, 0, 1, 0, 2, 3, 4},
		{1, 0, 0b11010, 4, 0, 0, 0, 1, 1},
		{0, 0, 0, 0, 0, 0, 0, 1, 7},
	}
	var seeds [][]byte
	for i, h := range headers {
		seeds = append(seeds, append(slices.Clone(h), ops(120+40*i)...))
	}
	return seeds
}

// TestFuzzDiscoverSeeds keeps the generator honest: each seed places
// well-formed skills and checks them, so the oracle is not vacuous.
func TestFuzzDiscoverSeeds(t *testing.T) {
	total := 0
	for i, s := range discoverSeeds() {
		w := newFuzzWorld(s)
		w.build()
		t.Run(fmt.Sprint(i), func(t *testing.T) { w.check(t) })
		for _, sk := range w.skills {
			if sk.present && !w.unscanned[sk.root] && w.stands(sk) {
				total++
			}
		}
	}
	if total < 50 {
		t.Fatalf("the seeds place only %d standing skills", total)
	}
}

// managedName is S63's rule for the names of managed skills, written out:
// 1 to 64 lowercase letters, digits and "-", not starting with "-".
func managedName(n string) bool {
	ok, _ := regexp.MatchString(`^[a-z0-9][a-z0-9-]{0,63}$`, n)
	return ok
}

// s45Name is a folder name as a skill's name (S45): C0 controls but TAB
// and LF, DEL and C1 controls become U+FFFD.
func s45Name(n string) string {
	var b strings.Builder
	for i, r := range n {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(n[i:], "\uFFFD"):
			b.WriteByte(n[i]) // a byte that is not UTF-8 stays
		case r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
