package core

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"
)

// Activation is a skill loaded for the model by an activation tool (SPEC
// S69, S70, S72): what [Activate] returns.
type Activation struct {
	Name    string
	BaseDir string
	// Content is the text for the model: the SKILL.md body wrapped in
	// <skill_content>, with the skill's directory and its resources (S69).
	Content string
	// Resources are the skill's files that Content lists (S70): slash paths
	// relative to BaseDir, in byte order; SKILL.md itself is not among them.
	Resources []string
	// Truncated: the listing stopped at one of its bounds, so the skill may
	// hold files Resources does not name (S70).
	Truncated bool
}

// Bounds of an activation's resource listing (S70).
const (
	// MaxActivateResources: at most this many files are listed.
	MaxActivateResources = 100
	// maxActivateDirs: at most this many directories below the skill's
	// are read.
	maxActivateDirs = 100
	// maxActivateEntries: at most this many directory entries are looked
	// at in all, whatever they turn out to be.
	maxActivateEntries = 10000
)

// Activate loads the skill named name for the model (SPEC S69, S70, S72),
// as the result of an activation tool ([ActivationTool]).
//
// Only skills the model may invoke are candidates: a skill with
// disable-model-invocation: true (S47) is unknown here, as it is absent
// from the tool's enum. An empty name is MISSING_NAME; an unknown one
// UNKNOWN_SKILL with the S50 message over the candidates.
//
// The body is the SKILL.md body as [ExpandCommand] reads it: the file
// discovery loaded, under S43's boundaries checked on the file opened
// (S44), at most 1 MiB (TOO_LARGE), frontmatter stripped, with
// ExpandCommand's errors. Content is
//
//	<skill_content name="<name>">
//	<body>                                  (and a blank line; both absent for an empty body)
//	Skill directory: <baseDir>
//	Relative paths in this skill resolve against that directory.
//
//	<skill_resources>                       (absent when no file is listed and nothing was cut)
//	  <file><relative path></file>          (one per resource)
//	</skill_resources>
//	This list is incomplete: the skill directory holds more than is listed here.   (only when Truncated)
//	</skill_content>
//
// with no newline at the end. Its structure cannot be forged (S72): in the
// name, the directory and the paths, &, < and > (and " in the name) are
// escaped as XML escapes them and every control character (C0, DEL, C1)
// and invalid UTF-8 becomes U+FFFD; in the body, the "<" that opens a tag
// named skill_content or skill_resources (ASCII case ignored, closing tags
// included) is written "&lt;", and nothing else is changed.
//
// The resources are listed as [listResources] says (S70).
func Activate(ctx context.Context, fsys FS, name string, skills []Skill) (*Activation, error) {
	if err := canceled(ctx, "activate"); err != nil {
		return nil, err
	}
	if name == "" {
		return nil, errorf(CodeMissingName, "activate requires a skill name")
	}
	candidates := slices.DeleteFunc(slices.Clone(skills), func(s Skill) bool { return s.DisableModelInvocation })
	s, e := findSkill(name, candidates)
	if e != nil {
		return nil, e
	}
	body, err := readSkillBody(fsys, s)
	if err != nil {
		return nil, err
	}
	base := skillBaseDir(s)
	files, truncated := listResources(fsys, base)
	return &Activation{Name: s.Name, BaseDir: base, Content: activationContent(s.Name, base, body, files, truncated),
		Resources: files, Truncated: truncated}, nil
}

// readSkillBody reads the SKILL.md of s that discovery loaded and returns
// its body (S36, S44, S45): S43's check at read time, a read of the file
// actually opened, at most 1 MiB, the frontmatter stripped by
// [ParseSkillFile].
func readSkillBody(fsys FS, s *Skill) (string, error) {
	within, err := skillFileWithin(fsys, s)
	var data []byte
	if err == nil {
		data, err = readFileWithin(fsys, within, s.FilePath, MaxExpandBytes)
	}
	if e, ok := err.(*Error); ok {
		return "", e
	}
	if err != nil {
		if e := readError(s.FilePath, err, "1 MiB"); e.Code != CodeNotFound {
			return "", e
		}
		return "", errorf(CodeNotFound, "Failed to read skill file: "+s.FilePath+" ("+POSIXCode(err)+")")
	}
	f := ParseSkillFile(s.FilePath, data)
	if f.Reject != "" {
		return "", errorf(CodeInvalidArgument, f.Reject)
	}
	return f.Body, nil
}

// listResources lists the files of the skill directory base for an
// activation (S70). Breadth first, so that the files closest to SKILL.md,
// the ones its instructions name, come first when a bound cuts:
//
//   - the directory and then its subdirectories are read level by level,
//     each one's entries in byte order of their names;
//   - an entry is skipped when its name starts with "." (S11), holds "/"
//     or "\", a control character (C0, DEL, C1) or invalid UTF-8 (a name
//     the model could not type back), and so is the top-level SKILL.md
//     (the body is the activation's content);
//   - a symlink counts only when its realpath lies inside the realpath of
//     base (a link out of the skill is neither listed nor followed), and
//     is then what it points to;
//   - a file is listed with its relative path when that path has at most 8
//     segments (S33); a directory is entered once, by realpath (S45);
//     anything else, a broken link, and a directory that cannot be read
//     are skipped silently;
//   - the walk stops, and truncated is true, when it would list a file
//     past MaxActivateResources (100), read a directory past the 100th
//     below base, or look at an entry past the 10,000th.
//
// The files are returned in byte order. A base that has no realpath or
// cannot be read gives no files.
func listResources(fsys FS, base string) (files []string, truncated bool) {
	files = []string{}
	realBase, err := fsys.Realpath(base)
	if err != nil {
		return files, false
	}
	type pending struct {
		path, rel, real string
		depth           int // segments of the relative path of a file in it
	}
	queue := []pending{{base, "", realBase, 1}}
	seen := map[string]bool{realBase: true}
	entriesSeen := 0
walk:
	for i := 0; i < len(queue); i++ {
		if i > maxActivateDirs {
			truncated = true
			break
		}
		d := queue[i]
		entries, err := fsys.ReadDir(d.path)
		if err != nil {
			continue
		}
		sortFunc(entries, func(a, b DirEntry) int { return strings.Compare(a.Name, b.Name) })
		for _, e := range entries {
			if entriesSeen == maxActivateEntries {
				truncated = true
				break walk
			}
			entriesSeen++
			if !resourceName(e.Name) || d.rel == "" && e.Name == "SKILL.md" {
				continue
			}
			p, typ, real := realJoin(d.path, e.Name), e.Type, realJoin(d.real, e.Name)
			if typ == TypeSymlink {
				r, err := fsys.Realpath(p)
				if err != nil || !pathWithin(r, realBase) {
					continue
				}
				if typ, err = fsys.Stat(p); err != nil {
					continue
				}
				real = r
			}
			switch typ {
			case TypeFile:
				if len(files) == MaxActivateResources {
					truncated = true
					break walk
				}
				files = append(files, d.rel+e.Name)
			case TypeDir:
				if d.depth < maxListDepth && !seen[real] {
					seen[real] = true
					queue = append(queue, pending{p, d.rel + e.Name + "/", real, d.depth + 1})
				}
			}
		}
	}
	sortFunc(files, strings.Compare)
	return files, truncated
}

// resourceName reports whether an entry name may be listed as a resource
// (S70): not hidden, no separator, valid UTF-8 without control characters.
func resourceName(name string) bool {
	if name == "" || name[0] == '.' || strings.ContainsAny(name, `/\`) || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if isMarkupControl(r) {
			return false
		}
	}
	return true
}

// isMarkupControl reports whether r is a control character of S72 and
// S70: C0 (TAB and LF included), DEL or C1.
func isMarkupControl(r rune) bool {
	return r < 0x20 || 0x7f <= r && r <= 0x9f
}

// activationContent is the Content of an [Activation] (S69, S72).
func activationContent(name, dir, body string, files []string, truncated bool) string {
	var b strings.Builder
	b.WriteString(`<skill_content name="`)
	writeMarkupText(&b, name, true)
	b.WriteString("\">\n")
	if body != "" {
		writeInertSkillTags(&b, body)
		b.WriteString("\n\n")
	}
	b.WriteString("Skill directory: ")
	writeMarkupText(&b, dir, false)
	b.WriteString("\nRelative paths in this skill resolve against that directory.\n")
	if len(files) > 0 || truncated {
		b.WriteString("\n<skill_resources>\n")
		for _, f := range files {
			b.WriteString("  <file>")
			writeMarkupText(&b, f, false)
			b.WriteString("</file>\n")
		}
		b.WriteString("</skill_resources>\n")
		if truncated {
			b.WriteString("This list is incomplete: the skill directory holds more than is listed here.\n")
		}
	}
	b.WriteString("</skill_content>")
	return b.String()
}

// writeMarkupText writes s as text (or, with attr, as a double-quoted
// attribute value) of the activation's markup (S72): &, < and > escaped,
// and " in an attribute; control characters and invalid UTF-8 as U+FFFD,
// so s can neither close the markup nor start a line of its own.
func writeMarkupText(b *strings.Builder, s string, attr bool) {
	for _, r := range s { // invalid UTF-8 comes as utf8.RuneError, U+FFFD
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"' && attr:
			b.WriteString("&quot;")
		case isMarkupControl(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
}

// activationTags are the tag names of the activation's markup (S72).
var activationTags = [...]string{"skill_content", "skill_resources"}

// writeInertSkillTags writes body with the "<" of every opening or closing
// tag named as one of activationTags (ASCII case ignored) written "&lt;",
// so a body cannot end its own <skill_content> or forge a resource list
// (S72). Everything else is written as it is.
func writeInertSkillTags(b *strings.Builder, body string) {
	for {
		i := strings.IndexByte(body, '<')
		if i < 0 {
			b.WriteString(body)
			return
		}
		b.WriteString(body[:i])
		rest := strings.TrimPrefix(body[i+1:], "/")
		inert := false
		for _, tag := range activationTags {
			if hasPrefixFoldASCII(rest, tag) {
				inert = true
				break
			}
		}
		if inert {
			b.WriteString("&lt;")
		} else {
			b.WriteByte('<')
		}
		body = body[i+1:]
	}
}

// hasPrefixFoldASCII reports whether s starts with prefix, a lower-case
// ASCII string, ignoring the case of ASCII letters only.
func hasPrefixFoldASCII(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// Tool is the definition of the activation tool (SPEC S71): what
// [ActivationTool] returns, which a host registers with the model. Its JSON
// form (the wire's) is
//
//	{"name", "description", "inputSchema": {"type": "object",
//	  "properties": {"name": {"type": "string", "description", "enum": Names}},
//	  "required": ["name"], "additionalProperties": false}}
type Tool struct {
	Name            string   // ActivationToolName
	Description     string   // what the tool does and when to call it
	NameDescription string   // the description of its one parameter, name
	Names           []string // the names [Activate] accepts, in S15 order
}

// ActivationToolName is the name of the activation tool (S71).
const ActivationToolName = "activate_skill"

// The descriptions of the activation tool (S71).
const (
	activationToolDescription = "Load a skill: its full instructions, its directory and a list of its files. " +
		"When a task matches the description of one of the available skills, call this with the skill's name " +
		"before you start on the task, then follow the instructions it returns."
	activationNameDescription = "The exact name of the skill to load."
)

// ActivationTool returns the definition of the activation tool for skills
// (SPEC S71): its Names are the names [Activate] accepts, the skills the
// model may invoke (not those with disable-model-invocation: true, S47),
// each once, in S15 order. With no such skill there is no tool: the result
// is nil, and a host registers none.
func ActivationTool(skills []Skill) *Tool {
	sorted := slices.DeleteFunc(slices.Clone(skills), func(s Skill) bool { return s.DisableModelInvocation })
	if len(sorted) == 0 {
		return nil
	}
	sortSkills(sorted)
	names := make([]string, 0, len(sorted))
	for i := range sorted { // S15 order puts equal names side by side
		if len(names) == 0 || names[len(names)-1] != sorted[i].Name {
			names = append(names, sorted[i].Name)
		}
	}
	return &Tool{Name: ActivationToolName, Description: activationToolDescription,
		NameDescription: activationNameDescription, Names: names}
}
