package core

import (
	"context"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Diagnostic severities (SPEC S40).
const (
	SeverityError   = "error"   // breaks the Agent Skills specification, or the skill cannot load
	SeverityWarning = "warning" // loads, but probably not as the author meant
	SeverityInfo    = "info"    // worth knowing; nothing is wrong
)

// Diagnostic codes of [Validate] (SPEC S40). Their severity is fixed per
// code except field-type (see [Validate]).
const (
	DiagMissingSkillMD      = "missing-skill-md"     // error: no regular file named exactly SKILL.md
	DiagUnreadable          = "unreadable"           // error: SKILL.md cannot be read
	DiagLinkOutside         = "link-outside"         // error: SKILL.md links outside the skill (S43); never read
	DiagEmptyFile           = "empty-file"           // error: SKILL.md is empty (S4: never a skill)
	DiagFrontmatterLimit    = "frontmatter-limit"    // error: over the frontmatter parser's safety limits (size, nesting)
	DiagNoFrontmatter       = "no-frontmatter"       // error: the first non-blank line is not ---
	DiagUnclosedFrontmatter = "unclosed-frontmatter" // error: no closing --- line
	DiagInvalidYAML         = "invalid-yaml"         // error: the S7 recovery was used; the message has the fix
	DiagFrontmatter         = "frontmatter-warning"  // warning: any other warning of the frontmatter parser
	DiagNameMissing         = "name-missing"         // error
	DiagNameType            = "name-type"            // error: not a string
	DiagNameLength          = "name-length"          // error: not 1 to 64 characters
	DiagNameCharset         = "name-charset"         // error: not only a-z, 0-9 and -
	DiagNameFormat          = "name-format"          // error: white space in the name (S49: commands still work, other tools' may not)
	DiagNameHyphen          = "name-hyphen"          // error: leading, trailing or doubled -
	DiagNameMismatch        = "name-mismatch"        // error: not the directory's name
	DiagDescriptionMissing  = "description-missing"  // error: absent, null or blank
	DiagDescriptionType     = "description-type"     // error: not a string
	DiagDescriptionLength   = "description-length"   // error: over 1024 characters
	DiagControlCharacter    = "control-character"    // error: a control character in name or description (S45)
	DiagCompatibilityType   = "compatibility-type"   // error: not a string
	DiagCompatibilityLength = "compatibility-length" // error: over 500 characters
	DiagMetadataType        = "metadata-type"        // error: not a mapping
	DiagMetadataValue       = "metadata-value"       // warning: a value inside metadata that is not a string (S51)
	DiagFieldType           = "field-type"           // error or warning: a known field of the wrong type
	DiagDisabled            = "disabled"             // warning: enabled: false, the skill never loads (S9)
	DiagUnknownKey          = "unknown-key"          // info: not an Agent Skills or skilldex field
	DiagEmptyBody           = "empty-body"           // warning: no instructions after the frontmatter
	DiagNestedSkillMD       = "nested-skill-md"      // warning: a SKILL.md below the skill, never discovered (S10)
	DiagGlobTooComplex      = CodeGlobTooComplex     // warning: a globs pattern over 256 bytes, skipped (S57)
	DiagInvalidGlob         = "invalid-glob"         // warning: a globs pattern that does not compile, skipped (S55)
)

// Validation is what [Validate] returns. For a skills root (S51), Dir
// is the root, Diagnostics is empty and Skills holds one Validation per
// skill folder below it; Skills is nil otherwise.
type Validation struct {
	Dir         string
	Diagnostics []Diagnostic
	Skills      []Validation
}

// Agent Skills specification limits.
const (
	maxNameLen          = 64
	maxDescriptionLen   = 1024
	maxCompatibilityLen = 500
)

// Validate checks the skill in skillDir against the Agent Skills
// specification and skilldex's own rules (SPEC S40). Problems are data: the
// result lists every diagnostic, in a fixed order (file, frontmatter parser,
// name, description, compatibility, other known fields, unknown keys in
// frontmatter order, body, nested SKILL.md files in byte order). An error is
// returned only when skillDir is not absolute (INVALID_ARGUMENT) or is not
// an existing directory (NOT_FOUND; a refused read says so and names the
// grant, S75). skillDir may also name the skill's SKILL.md (its name in
// any case): its folder is validated, with the folder holding it as the
// skills root (S75).
//
// A skills root (S51): when skillDir holds no SKILL.md (in any case) but
// some of its entries are skill folders, each is validated as a skill and
// the result lists them in Skills, in S15 order of their folder names,
// with nothing about the root itself. The entries are those discovery
// would scan (S11): not hidden, a folder or a link to one, holding a
// SKILL.md that is a file or a link to one.
//
// Lengths count characters (Unicode code points). Frontmatter diagnostics
// carry the line of the key concerned (its last occurrence), or, for a
// missing key, the line of the opening ---. The checks, by code:
//
//   - missing-skill-md (error): no regular file named exactly SKILL.md; a
//     file whose name differs only in case is named in the message.
//   - link-outside (error): SKILL.md is a link whose realpath lies outside
//     the realpath of the skill folder and of its skills root, the S43
//     boundaries a discovery without a load context has ([ScanDir]): the
//     skills root is skillDir for each skill of a skills root (S51), else
//     the directory holding skillDir. The message is discovery's warning;
//     the file is never opened, and nothing but the diagnostics of the
//     folder (nested-skill-md) follows.
//   - unreadable, empty-file, frontmatter-limit (error): the file cannot be
//     read (it is read as discovery reads it, S44: only if the file
//     actually opened lies inside the boundary its checks allowed, else
//     EXDEV; at most 8 MiB, S45), is empty after S4 decoding, or its
//     frontmatter is over the parser's safety limits (64 KiB, 64 levels of
//     nesting; the skill is skipped by discovery), at the line the parser
//     names.
//   - no-frontmatter, unclosed-frontmatter (error): S5 finds no frontmatter.
//   - invalid-yaml (error): the frontmatter is not valid YAML; the message
//     is the S7 warning (reason and fix) and line its line.
//   - frontmatter-warning (warning): any other warning of [ParseSkillFile].
//   - name-missing, name-type, name-length, name-charset (with a suggested
//     name), name-format (white space, S49; instead of name-charset),
//     name-hyphen, name-mismatch (error): name is 1-64 characters
//     of a-z, 0-9 and -, with no leading, trailing or doubled -, and equal
//     to the base name of skillDir as given (a link keeps its own name, as
//     in S11).
//   - description-missing, description-type, description-length (error):
//     description is a string of 1 to 1024 characters, not blank.
//   - control-character (error): name or description holds a C0 or C1
//     control character other than TAB and LF, or DEL, which discovery
//     shows as U+FFFD (S45).
//   - compatibility-type, compatibility-length (error): at most 500.
//   - metadata-type (error): metadata is a mapping; metadata-value
//     (warning, S51): a value in it that is not a string, with a fix for
//     its kind (quote a number or boolean; give a null a value; join a
//     list into one string; flatten a mapping).
//   - field-type: license must be a string and allowed-tools a string or
//     a list of strings, as Claude Code and the Agent Skills reference
//     validators accept (S51) (error);
//     skilldex's globs and contexts must be lists of strings, alwaysApply
//     (or always-apply), enabled, disable-model-invocation and
//     user-invocable booleans (warning: S8 and S47 ignore them).
//   - disabled (warning): enabled: false, so discovery skips the skill.
//   - unknown-key (info): a top-level key that is neither an Agent Skills
//     field (name, description, license, compatibility, metadata,
//     allowed-tools), nor a skilldex one (globs, contexts, alwaysApply,
//     always-apply, enabled), nor one of Claude Code's (disable-model-
//     invocation and user-invocable, which S47 reads and must be booleans
//     (field-type warning), argument-hint, model).
//   - empty-body (warning): nothing after the frontmatter.
//   - nested-skill-md (warning): a SKILL.md in a subdirectory (searched as
//     [ListFiles] walks: hidden entries skipped, 8 levels, links only inside
//     the skill). Discovery looks one level below a skills root only, so it
//     never finds it.
func Validate(ctx context.Context, fsys FS, skillDir string) (*Validation, error) {
	if !strings.HasPrefix(skillDir, "/") {
		return nil, errorf(CodeInvalidArgument, "dir must be an absolute path")
	}
	if err := canceled(ctx, "validate"); err != nil {
		return nil, err
	}
	dir := path.Clean(skillDir)
	t, err := fsys.Stat(dir)
	if err != nil {
		switch c := POSIXCode(err); c {
		case ENOENT:
			return nil, errorf(CodeNotFound, "Directory not found: "+dir)
		case EPERM, EACCES: // S75: a refusal is not an absence
			return nil, errorf(CodeNotFound, "Cannot read directory: "+dir+" ("+c+"); "+readFailureFix(dir, c))
		default:
			return nil, errorf(CodeNotFound, "Directory not found: "+dir+" ("+c+")")
		}
	}
	if t == TypeFile && strings.EqualFold(path.Base(dir), "SKILL.md") { // S75: a skill's file stands for its folder
		folder := path.Dir(dir)
		return validateSkill(ctx, fsys, folder, path.Dir(folder)), nil
	}
	if t != TypeDir {
		return nil, errorf(CodeNotFound, "Not a directory: "+dir+"; validate takes a skill folder, its SKILL.md, or a skills root")
	}
	if children := skillFolders(fsys, dir); children != nil { // S51
		root := &Validation{Dir: dir, Diagnostics: []Diagnostic{}, Skills: make([]Validation, 0, len(children))}
		for _, c := range children {
			if err := canceled(ctx, "validate"); err != nil {
				return nil, err
			}
			root.Skills = append(root.Skills, *validateSkill(ctx, fsys, c, dir))
		}
		return root, nil
	}
	v := validateSkill(ctx, fsys, dir, path.Dir(dir))
	if err := canceled(ctx, "validate"); err != nil {
		return nil, err
	}
	return v, nil
}

// validateSkill checks the skill folder dir (clean, absolute, a directory)
// found in the skills root root (S43's boundaries).
func validateSkill(ctx context.Context, fsys FS, dir, root string) *Validation {
	v := &validator{fsys: fsys, dir: dir, root: root, out: &Validation{Dir: dir, Diagnostics: []Diagnostic{}}}
	v.checkFile()
	v.checkNested(ctx)
	return v.out
}

// skillFolders returns the skill folders of dir in S15 order of their
// names when dir is a skills root (S51): dir holds no SKILL.md, in any
// case, and at least one entry is a skill folder as discovery scans them
// (S11). Otherwise nil.
func skillFolders(fsys FS, dir string) []string {
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if strings.EqualFold(e.Name, "SKILL.md") {
			return nil // a skill, perhaps with a misnamed SKILL.md: checkFile says so
		}
		if strings.HasPrefix(e.Name, ".") || e.Type != TypeDir && e.Type != TypeSymlink {
			continue
		}
		child := path.Join(dir, e.Name)
		if e.Type == TypeSymlink {
			if t, err := fsys.Stat(child); err != nil || t != TypeDir {
				continue
			}
		}
		if t, err := fsys.Stat(child + "/SKILL.md"); err == nil && t == TypeFile {
			names = append(names, e.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sortFunc(names, func(a, b string) int { return compareS15(a, "", b, "") })
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = path.Join(dir, n)
	}
	return out
}

type validator struct {
	fsys FS
	dir  string
	root string // the skills root the folder is taken to be in (S43)
	out  *Validation
	fm   fmLines
}

// add and keyLine are not inlined: checkFields and its kin call them at
// some forty sites, where each inlined copy cost the wasm module about
// 300 bytes, and validation is never on a hot path.
//
//go:noinline
func (v *validator) add(code, severity, message string, line int) {
	v.addDiagnostic(Diagnostic{Path: v.dir + "/SKILL.md", Code: code, Severity: severity, Message: message, Line: line})
}

// addFix adds the diagnostic whose message is "<problem>; <fix>" (S73).
//
//go:noinline
func (v *validator) addFix(code, severity, problem, fix string, line int) {
	d := diagnostic(v.dir+"/SKILL.md", code, severity, problem, fix)
	d.Line = line
	v.addDiagnostic(d)
}

//go:noinline
func (v *validator) addDiagnostic(d Diagnostic) {
	v.out.Diagnostics = append(v.out.Diagnostics, d)
}

func (v *validator) checkFile() {
	file := path.Join(v.dir, "SKILL.md")
	t, err := v.fsys.Stat(file)
	if err != nil || t != TypeFile {
		msg, fix := "SKILL.md not found in "+v.dir, ""
		if err == nil {
			msg = file + " is not a regular file"
		} else if entries, e := v.fsys.ReadDir(v.dir); e == nil {
			for _, en := range sortedEntries(entries) {
				if en.Name != "SKILL.md" && strings.EqualFold(en.Name, "SKILL.md") {
					msg += ` (found "` + en.Name + `": the name is case-sensitive, rename it to SKILL.md)`
					fix = "rename " + en.Name + " to SKILL.md"
					break
				}
			}
		}
		v.addDiagnostic(Diagnostic{Path: v.dir, Code: DiagMissingSkillMD, Severity: SeverityError, Message: msg, Fix: fix})
		return
	}
	data, ok := v.read(file)
	if !ok {
		return
	}
	text := DecodeText(data)
	if text == "" {
		v.addFix(DiagEmptyFile, SeverityError, "SKILL.md is empty", "a skill needs frontmatter with name and description", 0)
		return
	}
	sf := parseSkillFile(file, data, false) // validate always takes the complete path
	if sf.Reject != "" {
		d, msg := parserDiagnostic(file, sf.Reject, text, SeverityError)
		d.Message = msg
		v.addDiagnostic(d)
		return
	}
	v.fm = scanFrontmatterLines(text)
	switch {
	case v.fm.open == 0:
		v.addFix(DiagNoFrontmatter, SeverityError,
			"SKILL.md has no frontmatter", "start the file with a --- line, then name: and description: lines, then ---", 1)
	case v.fm.close == 0:
		v.addFix(DiagUnclosedFrontmatter, SeverityError,
			"the frontmatter opened here is never closed", "add a line holding only --- after it", v.fm.open)
	}
	for _, w := range sf.Warnings {
		d, msg := parserDiagnostic(file, w, text, SeverityWarning)
		if d.Code == DiagInvalidYAML { // S40: breaks the specification, though discovery recovers
			d.Severity = SeverityError
		}
		d.Message = msg
		v.addDiagnostic(d)
	}
	v.checkFields(sf.Frontmatter)
	if strings.TrimSpace(sf.Body) == "" {
		v.add(DiagEmptyBody, SeverityWarning, "SKILL.md has no instructions after the frontmatter", 0)
	}
}

// read reads SKILL.md (a regular file, or a link to one) as discovery
// does (S43, S44): a link whose realpath leaves the folder and the root is
// reported and never opened; any other file is read only if the file
// actually opened lies inside the realpath it must have (the link's
// target's folder, or the skill folder). It reports a failure itself.
func (v *validator) read(file string) ([]byte, bool) {
	fsys := v.fsys
	t, err := fsys.Lstat(file)
	within := ""
	if err == nil {
		if t == TypeSymlink { // S43: where may it point?
			var real string
			if real, err = fsys.Realpath(file); err == nil {
				if within = trustedWithin(fsys, real, v.dir, v.root); within == "" {
					v.addDiagnostic(linkOutsideDiagnostic(file, real))
					return nil, false
				}
			}
		} else {
			within, err = fsys.Realpath(v.dir)
		}
	}
	var data []byte
	if err == nil {
		data, err = readFileWithin(fsys, within, file, MaxResolveBytes)
	}
	if tl, ok := err.(*errTooLarge); ok { // S45
		v.add(DiagUnreadable, SeverityError, "File too large: "+file+" ("+strconv.FormatInt(tl.size, 10)+
			" bytes; the limit is 8 MiB)", 0)
		return nil, false
	}
	if err != nil {
		v.addDiagnostic(readFailureWarning(file, err))
		return nil, false
	}
	return data, true
}

// keyLine is the line of key k, or of the opening --- when k is absent.
//
//go:noinline
func (v *validator) keyLine(k string) int {
	if l, ok := v.fm.keys[k]; ok {
		return l
	}
	return v.fm.open
}

func (v *validator) checkFields(fm *Map) {
	dirName := path.Base(v.dir)
	// name
	if nv, ok := fm.Get("name"); !ok || nv == nil {
		v.addFix(DiagNameMissing, SeverityError, "name is required", "add: name: "+dirName, v.keyLine("name"))
	} else if name, ok := nv.(string); !ok {
		v.add(DiagNameType, SeverityError, "name must be a string, not "+valueKind(nv), v.keyLine("name"))
	} else {
		v.checkName(name, dirName)
	}
	for _, k := range []string{"name", "description"} { // S45
		if s, ok := fm.value(k).(string); ok && hasControl(s) {
			v.addFix(DiagControlCharacter, SeverityError, k+" holds control characters (shown as U+FFFD)", "remove them", v.keyLine(k))
		}
	}
	// description
	if dv, ok := fm.Get("description"); !ok || dv == nil {
		v.addFix(DiagDescriptionMissing, SeverityError,
			"description is required", "say what the skill does and when to use it", v.keyLine("description"))
	} else if d, ok := dv.(string); !ok {
		v.add(DiagDescriptionType, SeverityError, "description must be a string, not "+valueKind(dv), v.keyLine("description"))
	} else if strings.TrimSpace(d) == "" {
		v.addFix(DiagDescriptionMissing, SeverityError,
			"description is empty", "say what the skill does and when to use it", v.keyLine("description"))
	} else if n := utf8.RuneCountInString(d); n > maxDescriptionLen {
		v.add(DiagDescriptionLength, SeverityError, "description is "+strconv.Itoa(n)+
			" characters; the limit is 1024", v.keyLine("description"))
	}
	// compatibility
	if cv, ok := fm.Get("compatibility"); ok {
		if c, isStr := cv.(string); !isStr {
			v.add(DiagCompatibilityType, SeverityError, "compatibility must be a string, not "+valueKind(cv), v.keyLine("compatibility"))
		} else if n := utf8.RuneCountInString(c); n > maxCompatibilityLen {
			v.add(DiagCompatibilityLength, SeverityError, "compatibility is "+strconv.Itoa(n)+
				" characters; the limit is 500", v.keyLine("compatibility"))
		}
	}
	// license, allowed-tools (S51: a list of strings too, as clients accept)
	if x, ok := fm.Get("license"); ok && !isString(x) {
		v.add(DiagFieldType, SeverityError, "license must be a string, not "+valueKind(x), v.keyLine("license"))
	}
	if x, ok := fm.Get("allowed-tools"); ok && !isString(x) && stringList(fm, "allowed-tools") == nil {
		what := "not " + valueKind(x)
		if list, isList := x.([]Value); isList {
			for _, e := range list {
				if !isString(e) {
					what = "and an item is " + valueKind(e)
					break
				}
			}
		}
		v.add(DiagFieldType, SeverityError, "allowed-tools must be a string or a list of strings, "+what, v.keyLine("allowed-tools"))
	}
	// metadata
	if mv, ok := fm.Get("metadata"); ok {
		if m, isMap := mv.(*Map); !isMap {
			v.add(DiagMetadataType, SeverityError, "metadata must be a mapping of strings to strings, not "+valueKind(mv), v.keyLine("metadata"))
		} else {
			for _, k := range m.Keys() {
				if x, _ := m.Get(k); !isString(x) {
					fix := metadataFix(k, x)
					v.addDiagnostic(Diagnostic{Path: v.dir + "/SKILL.md", Line: v.keyLine("metadata"), Code: DiagMetadataValue,
						Severity: SeverityWarning, Message: "metadata." + k + " is " + valueKind(x) +
							"; the Agent Skills spec maps strings to strings, so other tools may drop it: " + fix, Fix: fix})
				}
			}
		}
	}
	// skilldex fields (S8, S9)
	for _, k := range []string{"globs", "contexts"} {
		x, ok := fm.Get(k)
		if !ok || stringList(fm, k) != nil {
			continue
		}
		what := "not " + valueKind(x)
		if list, isList := x.([]Value); isList {
			for _, e := range list {
				if !isString(e) {
					what = "and an item is " + valueKind(e)
					break
				}
			}
		}
		v.add(DiagFieldType, SeverityWarning, k+" must be a list of strings, "+what+"; it is ignored", v.keyLine(k))
	}
	for _, g := range stringList(fm, "globs") {
		if _, err := compilePathPattern(g); err == errGlobTooLong {
			v.addDiagnostic(Diagnostic{Path: v.dir + "/SKILL.md", Line: v.keyLine("globs"), Code: DiagGlobTooComplex,
				Severity: SeverityWarning, Message: "the glob pattern " + quoteInput(g) + " in globs is " + strconv.Itoa(len(g)) +
					" bytes long, over the limit of " + strconv.Itoa(MaxGlobBytes) + "; it is skipped (" + globTooComplexFix + ")",
				Fix: globTooComplexFix})
		} else if err != nil {
			v.add(DiagInvalidGlob, SeverityWarning, "invalid glob pattern "+quoteInput(g)+" in globs: "+err.Error()+"; it is skipped",
				v.keyLine("globs"))
		}
	}
	for _, k := range []string{"alwaysApply", "always-apply", "disable-model-invocation", "user-invocable"} {
		if x, ok := fm.Get(k); ok {
			if _, isBool := x.(bool); !isBool {
				v.add(DiagFieldType, SeverityWarning, k+" must be true or false, not "+valueKind(x)+"; it is ignored", v.keyLine(k))
			}
		}
	}
	if x, ok := fm.Get("enabled"); ok {
		switch x := x.(type) {
		case bool:
			if !x {
				v.add(DiagDisabled, SeverityWarning, "enabled: false; discovery skips this skill", v.keyLine("enabled"))
			}
		case string:
			v.addDiagnostic(Diagnostic{Path: v.dir + "/SKILL.md", Line: v.keyLine("enabled"), Code: DiagFieldType,
				Severity: SeverityWarning, Message: `enabled must be true or false, not a string; "` + x +
					`" does not disable the skill, write enabled: false without quotes to do that`,
				Fix: "write enabled: false without quotes to disable the skill"})
		default:
			v.add(DiagFieldType, SeverityWarning, "enabled must be true or false, not "+valueKind(x)+"; it is ignored", v.keyLine("enabled"))
		}
	}
	for _, k := range fm.Keys() {
		if !knownFrontmatterKey(k) {
			v.add(DiagUnknownKey, SeverityInfo, `unknown frontmatter key "`+k+
				`": not an Agent Skills field; skilldex keeps it in frontmatter, other tools may ignore it`, v.keyLine(k))
		}
	}
}

func (v *validator) checkName(name, dirName string) {
	line := v.keyLine("name")
	n := utf8.RuneCountInString(name)
	if n == 0 || n > maxNameLen {
		v.add(DiagNameLength, SeverityError, "name is "+strconv.Itoa(n)+" characters; it must be 1 to 64", line)
	}
	if strings.IndexFunc(name, unicode.IsSpace) >= 0 { // S49
		msg := `name "` + name + `" holds white space; skilldex matches /skill:` + name +
			` and skill:// URLs need it percent-encoded, and other tools reject it`
		v.addSuggestion(DiagNameFormat, msg, suggestName(name), line)
	} else if n > 0 && !validNameChars(name) {
		v.addSuggestion(DiagNameCharset, `name "`+name+`" may contain only lowercase letters a-z, digits and -`,
			suggestOther(name), line)
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") || strings.Contains(name, "--") {
		v.addSuggestion(DiagNameHyphen, `name "`+name+`" must not start or end with - or contain --`, suggestOther(name), line)
	}
	if name != dirName {
		v.addFix(DiagNameMismatch, SeverityError, `name "`+name+`" does not match the directory name "`+dirName+`"`,
			"rename one so they are equal", line)
	}
}

// addSuggestion adds a name error whose message ends with `; try "<s>"`
// when there is a suggestion s (S73: the fix `try "<s>"`).
func (v *validator) addSuggestion(code, problem, s string, line int) {
	fix := ""
	if s != "" {
		fix = `try "` + s + `"`
	}
	v.addFix(code, SeverityError, problem, fix, line)
}

// suggestOther is suggestName(name) when it differs from name, else "".
func suggestOther(name string) string {
	if s := suggestName(name); s != name {
		return s
	}
	return ""
}

func validNameChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// suggestName lower-cases s, turns every run of other characters into one
// "-" and trims "-" from the ends.
func suggestName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	out := b.String()
	if utf8.RuneCountInString(out) > maxNameLen {
		out = strings.TrimRight(out[:maxNameLen], "-")
	}
	return out
}

// metadataFix is the fix for a metadata value x that is not a string
// (S51): what to write depends on what x is.
func metadataFix(k string, x Value) string {
	switch x.(type) {
	case nil:
		return "give it a value (" + k + `: "…") or remove the key`
	case []Value:
		return `write the items as one string (` + k + `: "a, b"), or move the list to a top-level key`
	case *Map:
		return "flatten it into keys of metadata (" + k + `-<key>: "…")`
	}
	return "quote the value so it is the text as written (" + k + `: "…")`
}

func knownFrontmatterKey(k string) bool {
	switch k {
	case "name", "description", "license", "compatibility", "metadata", "allowed-tools", // Agent Skills
		"globs", "contexts", "alwaysApply", "always-apply", "enabled", // skilldex (S8, S9)
		"disable-model-invocation", "user-invocable", "argument-hint", "model": // Claude Code (S47)
		return true
	}
	return false
}

func isString(v Value) bool { _, ok := v.(string); return ok }

// valueKind names the JSON kind of a frontmatter value for messages; not
// inlined, like add: its dozen copies cost the module about 4 KB.
//
//go:noinline
func valueKind(v Value) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []Value:
		return "a list"
	case *Map:
		return "a mapping"
	}
	return "an unknown value"
}

func (v *validator) checkNested(ctx context.Context) {
	w, err := walkSkillDir(ctx, v.fsys, v.dir, nil)
	if err != nil {
		return
	}
	for _, f := range w.files {
		if strings.Contains(f, "/") && path.Base(f) == "SKILL.md" {
			d := diagnostic(v.dir+"/"+f, DiagNestedSkillMD, SeverityWarning, f+": a SKILL.md below a skill is never discovered "+
				"(skills are found one level below a skills root)",
				"move its folder into a skills root, or point customDirectories at its parent")
			v.addDiagnostic(d)
		}
	}
}

// fmLines locates the frontmatter of a decoded SKILL.md by the S5 rules,
// by line number (1-based; 0 when absent).
type fmLines struct {
	open, close int
	keys        map[string]int // top-level key -> line of its last occurrence
}

// scanFrontmatterLines finds the S5 delimiters and the lines of the
// top-level keys between them: lines with no indentation of the form
// key: ..., the key plain or quoted.
func scanFrontmatterLines(text string) fmLines {
	out := fmLines{keys: map[string]int{}}
	lines := strings.Split(text, "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i == len(lines) || strings.TrimSpace(lines[i]) != "---" {
		return out
	}
	out.open = i + 1
	for j := i + 1; j < len(lines); j++ {
		l := lines[j]
		if strings.TrimSpace(l) == "---" {
			out.close = j + 1
			break
		}
		if k, ok := topLevelKey(l); ok {
			out.keys[k] = j + 1
		}
	}
	if out.close == 0 { // S5: no closing line, no frontmatter, no keys
		clear(out.keys)
	}
	return out
}

// topLevelKey returns the key of a line "key: value" that starts at column
// 0; the key may be quoted with " or '.
func topLevelKey(l string) (string, bool) {
	if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || l[0] == '-' {
		return "", false
	}
	if q := l[0]; q == '"' || q == '\'' {
		end := strings.IndexByte(l[1:], q)
		if end < 0 {
			return "", false
		}
		k, rest := l[1:1+end], strings.TrimLeft(l[2+end:], " \t")
		if !strings.HasPrefix(rest, ":") {
			return "", false
		}
		return k, true
	}
	for i := 0; i < len(l); i++ {
		if l[i] == ':' && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t') {
			k := strings.TrimRight(l[:i], " \t")
			return k, k != ""
		}
	}
	return "", false
}

func sortedEntries(entries []DirEntry) []DirEntry {
	out := slices.Clone(entries)
	sortFunc(out, func(a, b DirEntry) int { return strings.Compare(a.Name, b.Name) })
	return out
}
