package core

import (
	"context"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/skilldex/skilldex/internal/jsontext"
)

// MaxRootEntries bounds the entries scanned in one skills root, so a
// runaway directory cannot make discovery unbounded. More are reported with a
// warning and skipped (they come last in byte order of their names).
const MaxRootEntries = 50000

// scanSpec says how to scan one skills root and how to label what it finds.
type scanSpec struct {
	root               string
	provider           string
	providerName       string
	level              string
	requireDescription bool
	namePrefix         string // "<plugin>:" for claude-plugins (S20)
	quietENOTDIR       bool   // a root below another root (S48): its parent already warned
	// quietEPERM: a project root of an ancestor above cwd, which a host
	// that refuses reads (EPERM: Deno outside --allow-read) may refuse
	// without a word; its grant bounds the walk up (S75).
	quietEPERM bool
	// reportMissing: a customDirectories entry, which the user named, so
	// that its absence is a warning, not S12's silence (S75).
	reportMissing bool
	// scope is the S43 boundary of the source besides the skill folder
	// and the root: repository, project directory, home or installPath;
	// "" for none.
	scope string
}

// scanOutcome is what scanning one root produced. Messages are bare; the
// caller decides their prefix and skillPath (S21, S26).
type scanOutcome struct {
	skills []Skill
	// rootWarning is set (its Code is not "") when the root itself could
	// not be read (S12), or holds too many entries.
	rootWarning Diagnostic
	// fileWarnings are about single SKILL.md files, skillPath the file.
	fileWarnings []Warning
	// outside are the skills whose SKILL.md links outside every S43
	// boundary, not read (reason link-outside).
	outside []Shadowed
}

// scanRoot scans one skills root, one level deep (SPEC S10 to S14):
// listRoot, the read-ahead hint of its SKILL.md reads, then scan.
func scanRoot(ctx context.Context, fsys FS, spec scanSpec) scanOutcome {
	r, out := listRoot(fsys, spec)
	if r == nil {
		return out
	}
	if p, ok := fsys.(Prefetcher); ok {
		hintSkillReads(p, []*rootScan{r})
	}
	return r.scan(ctx)
}

// listRoot reads a skills root's listing, sorts it (S11) and, when it
// holds a plain folder, computes the root's realpath: everything a scan
// needs before its first SKILL.md read. A root that cannot be listed
// gives no rootScan, only its outcome (S12).
//
// Discovery lists every root before it scans any (scanContext), so that
// one read-ahead hint can name the SKILL.md reads of all of them
// (hintSkillReads): a hint per root left the host's reader idle between
// roots and cost the engine's thread a message and a wake-up each.
//
//go:noinline
func listRoot(fsys FS, spec scanSpec) (*rootScan, scanOutcome) {
	var out scanOutcome
	entries, err := fsys.ReadDir(spec.root)
	if err != nil {
		switch code := POSIXCode(err); {
		case code == ENOENT && spec.reportMissing: // S75
			out.rootWarning = diagnostic(spec.root, DiagCustomDirMissing, SeverityWarning,
				"Custom directory not found: "+spec.root, "create it, or remove it from customDirectories")
		case code == ENOENT, code == ENOTDIR && spec.quietENOTDIR, code == EPERM && spec.quietEPERM: // S12, S48, S75
		default:
			out.rootWarning = readFailureDiagnostic(DiagRootUnreadable, SeverityError, "Failed to read skills directory", spec.root, code)
		}
		return nil, out
	}
	// S11: byte order of names, whatever order the host listed them in.
	sortFunc(entries, func(a, b DirEntry) int { return strings.Compare(a.Name, b.Name) })
	if len(entries) > MaxRootEntries {
		out.rootWarning = Diagnostic{Path: spec.root, Code: DiagRootTooLarge, Severity: SeverityWarning,
			Message: "Skills directory has " + strconv.Itoa(len(entries)) + " entries: " + spec.root +
				" (only the first " + strconv.Itoa(MaxRootEntries) + " by name are scanned; move the rest to another skills directory)",
			Fix: "move the entries past the first " + strconv.Itoa(MaxRootEntries) + " to another skills directory"}
		entries = entries[:MaxRootEntries]
	}
	r := newRootScan(fsys, &spec, entries, out)
	if r.plain > 0 {
		r.realRoot()
	}
	return r, scanOutcome{}
}

// scan scans every entry of a listed root (listRoot) and returns what it
// found.
//
// The work of one entry is split over small functions (rootScan's methods)
// rather than written out in the loop: Go compiles a function to one wasm
// loop whose every taken branch jumps back to its head, and V8 charges each
// jump its distance in machine code against the function's budget for
// optimisation, so a loop body this size had the whole scan (18 KB of
// wasm) optimised within the first root, which a one-shot process then
// waited for at exit (see [scanContext]).
//
//go:noinline
func (r *rootScan) scan(ctx context.Context) scanOutcome {
	if r.scanScratch == nil {
		r.scanScratch = newScanScratch()
	}
	r.fast.cache = r.cache
	if r.out.skills == nil { // not given a part of a discovery's array (shareSkillStorage)
		r.out.skills = make([]Skill, 0, r.candidates)
	}
	for i := range r.entries {
		if ctx.Err() != nil {
			break // the caller reports it (canceled)
		}
		r.entry(i)
	}
	sortSkills(r.out.skills)
	return r.out
}

// rootScan is the state of one scanRoot.
type rootScan struct {
	fsys    FS
	spec    *scanSpec
	entries []DirEntry
	out     scanOutcome
	// Paths are built by concatenation: the root is clean and an entry's
	// name holds no "/" and is not "." or ".." (those start with "."), so
	// this is path.Join without its cost. root is "" for "/".
	root                     string
	source                   string
	rootReal                 string // realpath of the root, computed on first need
	haveRootReal, rootRealOK bool   // rootRealOK: rootReal is a realpath, not the root as a fallback
	*scanScratch                    // set when the scan starts: the last root's, or new
	// A SKILL.md is read through a check of the file actually opened
	// (S44, ReadFileWithin): it must lie where its checks allowed, so a
	// file swapped for a link meanwhile is not read.
	within     withinPrefixFS
	trust      []string
	candidates int
	plain      int // the plain folders (not links, not dot folders): the SKILL.md reads hintSkillReads names
	maps       []Map
	cache      *FrontmatterCache // Options.FrontmatterCache
}

// scanScratch is what the scans of a discovery's roots pass on, each to the
// next (scanContext): buffers reused from file to file and arenas still
// being filled. One per root left a part-filled chunk or two and a read
// buffer behind each: about 23 KB a root, in a one-shot process pages of
// linear memory touched for nothing.
type scanScratch struct {
	buf  []byte          // the read buffer of readSkillHead
	fast frontmatterJSON // the direct path's buffers
	// keep holds the skills' paths and frontmatter JSON: they share a few
	// allocations (each was an allocation a skill in wasm).
	keep stringArena
}

func newScanScratch() *scanScratch {
	s := &scanScratch{keep: stringArena{chunk: 16 << 10}}
	s.fast.text.chunk = 16 << 10
	return s
}

// newRootScan sets up the scan of entries, a root's sorted listing.
//
//go:noinline
func newRootScan(fsys FS, spec *scanSpec, entries []DirEntry, out scanOutcome) *rootScan {
	r := &rootScan{fsys: fsys, spec: spec, entries: entries, out: out, within: withinPrefixFS{FS: fsys}}
	r.root = cleanPath(spec.root)
	if r.root == "/" {
		r.root = ""
	}
	r.source = spec.provider + ":" + spec.level
	r.trust = []string{spec.root, spec.scope}
	for _, e := range entries { // the entries that may hold a skill: room for them all, allocated once
		if (e.Type == TypeDir || e.Type == TypeSymlink) && !strings.HasPrefix(e.Name, ".") {
			r.candidates++
			if e.Type == TypeDir {
				r.plain++
			}
		}
	}
	// The skills' Maps share one allocation (each was an
	// allocation a skill in wasm).
	r.maps = make([]Map, 0, r.candidates)
	return r
}

// entry scans entries[i].
//
//go:noinline
func (r *rootScan) entry(i int) {
	e := &r.entries[i]
	if strings.HasPrefix(e.Name, ".") {
		return
	}
	file := r.keep.concat(r.root, "/", e.Name, "/SKILL.md")
	dir := file[:len(file)-len("/SKILL.md")]
	linked := false
	switch e.Type {
	case TypeDir:
	case TypeSymlink:
		if !r.followDir(dir, file) {
			return
		}
		linked = true
	default:
		return
	}
	// The usual skill: a real folder holding a real SKILL.md, under a
	// root whose realpath is known. Its realpath can only be
	// rootReal/<name>/SKILL.md, so the read is checked against exactly
	// that (S44, ReadFileWithin): the file opened has that realpath,
	// or the read is refused and the checks of checkedHead find out what
	// the path is. This saves an lstat per skill, the most frequent call
	// of discovery, and takes the same calls on every FS, so every
	// runtime answers alike (S42) whatever its FS reports.
	if !linked {
		if r.rootRealOK { // listRoot computed it: this is a plain folder
			if r.rootReal == r.root { // no link above the root: the realpath is file itself
				r.within.within = file
			} else {
				r.within.within = realJoin(r.rootReal, e.Name) + "/SKILL.md"
			}
			// On any failure the checks of checkedHead run as if this
			// read had not been tried, so that what a failure means (no
			// skill, silently, or a warning) stays theirs alone.
			if head, err := readSkillHead(&r.within, file, &r.buf); err == nil {
				r.accept(e, file, dir, head, false, "")
				return
			}
		}
	}
	r.checkedEntry(e, file, dir, linked)
}

// followDir applies S11 to an entry that is a symbolic link: it reports
// whether the link leads to a directory. Broken, looping or file links are
// skipped silently, one that cannot be followed is reported.
//
//go:noinline
func (r *rootScan) followDir(dir, file string) bool {
	t, err := r.fsys.Stat(dir)
	if err != nil {
		r.out.readFailure(file, err)
		return false
	}
	return t == TypeDir
}

// realRoot computes the root's realpath (listRoot, for a root holding a
// plain folder).
//
//go:noinline
func (r *rootScan) realRoot() {
	rr, err := r.fsys.Realpath(r.spec.root)
	r.rootReal, r.rootRealOK, r.haveRootReal = rr, err == nil, true
	if err != nil {
		r.rootReal = r.spec.root
	}
}

// checkedEntry reads the SKILL.md of an entry the usual read did not
// settle: a linked folder or file, a root without a realpath, or a read
// that was refused or failed. It finds out what the path is, checks where
// a link may point (S43) and reads the file within what it allowed.
//
//go:noinline
func (r *rootScan) checkedEntry(e *DirEntry, file, dir string, linked bool) {
	fsys, spec, out := r.fsys, r.spec, &r.out
	t, err := fsys.Lstat(file)
	if err != nil {
		out.readFailure(file, err)
		return
	}
	fileLinked := t == TypeSymlink
	if fileLinked {
		if t, err = fsys.Stat(file); err != nil {
			out.readFailure(file, err)
			return
		}
		linked = true
	}
	if t != TypeFile {
		return
	}
	if !r.haveRootReal {
		rr, err := fsys.Realpath(spec.root)
		r.rootReal, r.rootRealOK, r.haveRootReal = rr, err == nil, true
		if err != nil {
			r.rootReal = spec.root
		}
	}
	// allowed: the directory the file read must lie in ("" when it
	// has no realpath: then the read is not checked).
	allowed, fileReal := "", ""
	if fileLinked { // S43: where may it point?
		if fileReal, err = fsys.Realpath(file); err != nil {
			out.readFailure(file, err)
			return
		}
		if allowed = trustedWithin(fsys, fileReal, dir, spec.root, spec.scope); allowed == "" {
			out.fileWarnings = append(out.fileWarnings, warning(file, linkOutsideDiagnostic(file, fileReal)))
			out.outside = append(out.outside, Shadowed{Name: spec.namePrefix + e.Name, FilePath: file,
				Source: r.source, Reason: ReasonLinkOutside})
			return
		}
	} else if linked {
		allowed, _ = fsys.Realpath(dir)
	} else if r.rootRealOK {
		allowed = realJoin(r.rootReal, e.Name)
	}
	var head skillHead
	if allowed != "" {
		r.within.within = allowed
		head, err = readSkillHead(&r.within, file, &r.buf)
	} else {
		head, err = readSkillHead(fsys, file, &r.buf)
	}
	if err != nil {
		out.fileWarnings = append(out.fileWarnings, warning(file, readFailureWarning(file, err)))
		return
	}
	r.accept(e, file, dir, head, linked, fileReal)
}

// accept makes a skill of an entry whose SKILL.md was read (head): its
// frontmatter parsed, its fields checked and bounded (S45), its realpath
// (S25) found.
//
//go:noinline
func (r *rootScan) accept(e *DirEntry, file, dir string, head skillHead, linked bool, fileReal string) {
	out := &r.out
	if head.reject != "" {
		out.parserWarnings(file, []string{head.reject}, nil)
		return
	}
	if head.empty {
		return // S4: an empty file is never a skill
	}
	fm, warnings, reject := skillFrontmatterInto(file, head.data, &r.fast)
	if reject != "" {
		warnings = append(warnings, reject)
	}
	if len(warnings) > 0 {
		out.parserWarnings(file, warnings, head.data)
	}
	if reject != "" {
		return
	}
	var fields skillFields
	tree := fm != nil
	if fm == nil {
		// The direct path: one string holds the frontmatter's JSON and
		// the fields sliced from it.
		raw, f := r.fast.result(&r.keep)
		if len(r.maps) == cap(r.maps) {
			r.maps = make([]Map, 0, max(r.candidates/4, 16)) // never grown in place: skills point into it
		}
		r.maps = append(r.maps, Map{raw: raw})
		fm, fields = &r.maps[len(r.maps)-1], f
	} else {
		fields = mapFields(fm)
		// A discovered skill lives long: keep its frontmatter as JSON
		// (1.8 KB a skill instead of 0.9 KB as a tree).
		fm = compactMap(fm)
	}
	skill, ok := newSkill(e.Name, file, dir, r.source, fm, &fields, *r.spec)
	if !ok {
		return
	}
	warns, skip := boundSkillText(&skill, file, len(r.spec.namePrefix)) // S45
	for _, d := range warns {
		out.fileWarnings = append(out.fileWarnings, warning(file, d))
	}
	if skip {
		return
	}
	if tree {
		skill.Description = strings.Clone(skill.Description) // mapFields's description shares the frontmatter's text
	}
	skill.trust = r.trust
	// S25 needs the realpath of every SKILL.md. One realpath per root
	// serves every skill reached without a symlink (docs/PERF-NOTES.md).
	switch {
	case fileReal != "":
		skill.realpath = fileReal
	case linked:
		skill.realpath = realpathOr(r.fsys, file)
	default:
		if r.rootReal == r.root || r.rootReal == "/" && r.root == "" {
			skill.realpath = file // the usual case: no link on the way
		} else {
			skill.realpath = path.Join(r.rootReal, e.Name, "SKILL.md")
		}
	}
	out.skills = appendSkill(out.skills, &skill)
}

// parserWarnings adds the frontmatter parser's messages about file to the
// warnings (S73: their line, code and fix; data, the bytes read, gives the
// column of an S7 warning).
//
//go:noinline
func (out *scanOutcome) parserWarnings(file string, messages []string, data []byte) {
	text := ""
	if data != nil {
		text = DecodeText(data)
	}
	for _, m := range messages {
		d, _ := parserDiagnostic(file, m, text, SeverityWarning)
		out.fileWarnings = append(out.fileWarnings, warning(file, d))
	}
}

// realJoin is path.Join(dir, name) for a realpath dir and a name that is
// not "", "." or ".." and holds no "/".
func realJoin(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// readFailure records that file could not be reached, unless err says it
// is simply not there: missing (ENOENT, a dangling link), a link loop
// (ELOOP) or a path through a file (ENOTDIR) are no skill, silently (S11).
// Anything else (EACCES, EIO, ...) is a SKILL.md that may exist but cannot
// be read, and is reported.
func (out *scanOutcome) readFailure(file string, err error) {
	switch POSIXCode(err) {
	case ENOENT, ELOOP, ENOTDIR:
		return
	}
	out.fileWarnings = append(out.fileWarnings, warning(file, readFailureWarning(file, err)))
}

// readFailureWarning is S11's warning for a SKILL.md that exists but
// cannot be read: "Failed to read skill file: <path> (<CODE>)".
func readFailureWarning(file string, err error) Diagnostic {
	return readFailureDiagnostic(DiagUnreadable, SeverityError, "Failed to read skill file", file, POSIXCode(err))
}

// realpathOr returns the realpath of p, or p itself when realpath fails (S25).
func realpathOr(fsys FS, p string) string {
	if r, err := fsys.Realpath(p); err == nil {
		return r
	}
	return p
}

// skillFields are what a skill takes from its frontmatter (S8, S9, S13,
// S14), read from the tree (mapFields) or from its JSON (scanjson.go).
type skillFields struct {
	disabled          bool   // enabled is the boolean false (S9)
	described         bool   // description is truthy (S14)
	name, description string // "" when absent or not a string
	contexts, globs   []string
	alwaysApply       bool
	hasAlwaysApply    bool // alwaysApply (or always-apply) is a boolean

	disableModelInvocation bool // disable-model-invocation is the boolean true (S47)
	disableUserInvocation  bool // user-invocable is the boolean false (S47)
}

// mapFields reads a skill's fields from its frontmatter tree. The strings
// are copies (the tree's point into the decoded text, which need not live
// as long as the skill), but for the description, which its caller copies
// once S45 has bounded it.
func mapFields(fm *Map) skillFields {
	var f skillFields
	if v, _ := fm.Get("enabled"); v == false {
		f.disabled = true
	}
	desc, _ := fm.Get("description")
	f.described = !isFalsy(desc)
	if d, ok := desc.(string); ok {
		f.description = d // cloned by scanRoot once S45 has cut it: a 64 KB description is not copied whole
	}
	if v, ok := fm.Get("name"); ok {
		if s, ok := v.(string); ok {
			f.name = strings.Clone(s)
		}
	}
	f.contexts = stringList(fm, "contexts")
	f.globs = stringList(fm, "globs")
	for _, list := range [][]string{f.contexts, f.globs} {
		for i, c := range list {
			list[i] = strings.Clone(c)
		}
	}
	aa, ok := fm.Get("alwaysApply")
	if !ok {
		aa, ok = fm.Get("always-apply")
	}
	if b, isBool := aa.(bool); ok && isBool {
		f.alwaysApply, f.hasAlwaysApply = b, true
	}
	f.disableModelInvocation = fm.value("disable-model-invocation") == true // S47: the booleans only
	f.disableUserInvocation = fm.value("user-invocable") == false
	return f
}

// newSkill builds the skill object from its frontmatter fields (S8, S9,
// S13, S14). ok is false when the skill is disabled or lacks a required
// description. dir is the folder holding file, source "<provider>:<level>".
func newSkill(entryName, file, dir, source string, fm *Map, f *skillFields, spec scanSpec) (Skill, bool) {
	if f.disabled || spec.requireDescription && !f.described {
		return Skill{}, false
	}
	name := entryName // S13
	if n := strings.TrimSpace(f.name); n != "" {
		name = n
	}
	s := Skill{
		Name:         spec.namePrefix + name,
		Description:  f.description,
		FilePath:     file,
		BaseDir:      dir,
		Source:       source,
		Provider:     spec.provider,
		ProviderName: spec.providerName,
		Level:        spec.level,
		SourcePath:   file,
		Frontmatter:  fm,
		Contexts:     f.contexts,
		Globs:        f.globs,
	}
	if f.hasAlwaysApply {
		b := f.alwaysApply
		s.AlwaysApply = &b
	}
	s.DisableModelInvocation = f.disableModelInvocation
	s.DisableUserInvocation = f.disableUserInvocation
	return s, true
}

// isFalsy is JavaScript truthiness, which is what S14's "missing, null,
// false, 0 or empty" describes.
func isFalsy(v Value) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case float64:
		return v == 0 || math.IsNaN(v)
	case string:
		return v == ""
	}
	return false
}

// stringList returns fm[key] when it is an array of strings (S8), else nil.
func stringList(fm *Map, key string) []string {
	v, ok := fm.Get(key)
	if !ok {
		return nil
	}
	list, ok := v.([]Value)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// sortSkills applies S15: lower-cased names, then names, then file paths;
// a stable sort. It sorts small keys rather than the skills themselves
// (moving whole Skill values was a large share of discovery's time in wasm)
// and lower-cases each name once.
func sortSkills(list []Skill) {
	if len(list) < 2 {
		return
	}
	type key struct {
		lower string
		i     int
	}
	keys := make([]key, len(list))
	sorted := true
	for i := range list {
		keys[i] = key{lowerName(list[i].Name), i}
		if i > 0 && sorted && compareS15Lower(keys[i-1].lower, &list[i-1], keys[i].lower, &list[i]) > 0 {
			sorted = false
		}
	}
	if sorted {
		return
	}
	sortFunc(keys, func(a, b key) int {
		if c := compareS15Lower(a.lower, &list[a.i], b.lower, &list[b.i]); c != 0 {
			return c
		}
		return a.i - b.i // equal keys keep their order: a stable sort
	})
	// Apply the permutation in place, one cycle at a time: position j
	// takes the skill at keys[j].i.
	for j := range keys {
		if keys[j].i == j {
			continue
		}
		tmp := list[j]
		cur := j
		for {
			src := keys[cur].i
			keys[cur].i = cur // done
			if src == j {
				list[cur] = tmp
				break
			}
			list[cur] = list[src]
			cur = src
		}
	}
}

// lowerName is strings.ToLower(s), which first looks at s a byte at a
// time; names are nearly always lower-case ASCII already, which this
// checks eight bytes at a time.
func lowerName(s string) string {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := jsontext.Word8(s, i)
		if w&0x8080808080808080|jsontext.Bytes8Below(w, 'Z'+1)&^jsontext.Bytes8Below(w, 'A') != 0 {
			return strings.ToLower(s)
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// appendSkill appends *s to list, doubling its capacity when full (append
// grows a large slice by a quarter, which for 10000 skills allocated five
// times their size).
func appendSkill(list []Skill, s *Skill) []Skill {
	if len(list) == cap(list) {
		list = slices.Grow(list, max(len(list), 16))
	}
	return append(list, *s)
}

// compareS15Lower is compareS15 with the lower-cased names given.
func compareS15Lower(lowerA string, a *Skill, lowerB string, b *Skill) int {
	if c := strings.Compare(lowerA, lowerB); c != 0 {
		return c
	}
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return strings.Compare(a.FilePath, b.FilePath)
}

func compareS15(nameA, fileA, nameB, fileB string) int {
	if c := strings.Compare(strings.ToLower(nameA), strings.ToLower(nameB)); c != 0 {
		return c
	}
	if c := strings.Compare(nameA, nameB); c != 0 {
		return c
	}
	return strings.Compare(fileA, fileB)
}

// hintSkillReads tells p of the checked reads the scans of roots are
// about to make, in the order they make them (SPEC S44 through
// [Prefetcher]): the SKILL.md of each plain folder of each root whose
// realpath is itself, with the buffer readSkillHead reads a head into
// first. One hint names them all: a new hint replaces the last, and a hint
// per root left the host's reader idle between roots. One read
// is no hint.
func hintSkillReads(p Prefetcher, roots []*rootScan) {
	const name = "/SKILL.md\x00"
	n, reads := 0, 0
	for _, r := range roots {
		if r == nil || !r.hinted() {
			continue
		}
		for _, e := range r.entries {
			if e.Type == TypeDir && !strings.HasPrefix(e.Name, ".") {
				n += len(r.root) + 1 + len(e.Name) + len(name)
				reads++
			}
		}
	}
	if reads < 2 {
		return
	}
	paths, at := make([]byte, n), 0
	for _, r := range roots {
		if r == nil || !r.hinted() {
			continue
		}
		for _, e := range r.entries {
			if e.Type == TypeDir && !strings.HasPrefix(e.Name, ".") {
				at += copy(paths[at:], r.root)
				paths[at] = '/'
				at += 1 + copy(paths[at+1:], e.Name)
				at += copy(paths[at:], name)
			}
		}
	}
	p.PrefetchWithin(paths, headFirstRead)
}

// hinted reports whether the root's plain SKILL.md reads are checked
// against their own paths (its realpath is itself), which is what a hint
// names.
func (r *rootScan) hinted() bool {
	return r.plain > 0 && r.rootRealOK && r.rootReal == r.root
}
