package core

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/internal/fmrules"
)

// Diagnostic is one problem, as data (SPEC S73): what [Validate] reports,
// and the body of every [Warning] of discovery, context files and match.
// An editor places it with Path, Line and Column, sorts it by Severity,
// filters it by Code, and shows Message (and Fix as a quick fix); nothing
// needs to be read back out of the message.
type Diagnostic struct {
	// Path is the file or directory the problem is in: a SKILL.md, a skills
	// root, a context file, the plugin registry; "" when it is in no file
	// (the options of a call, the reply budget).
	Path string
	// Line is the 1-based line in Path (after S4 decoding); 0 when none
	// applies.
	Line int
	// Column is the 1-based column on Line, counted in characters (Unicode
	// code points); 0 when the engine does not know it.
	Column int
	// Code is one of the Diag constants: stable, listed in SPEC S73.
	Code string
	// Severity is SeverityError, SeverityWarning or SeverityInfo.
	Severity string
	// Message is the whole text for people, as the engine has always
	// written it: the problem, then the fix when there is one.
	Message string
	// Fix says what to do, as a sentence; "" when no fix is known.
	Fix string
}

// Codes of discovery's, context files' and match's warnings (SPEC S73),
// besides those they share with [Validate] (DiagUnreadable,
// DiagLinkOutside, DiagInvalidYAML, DiagFrontmatter, DiagFrontmatterLimit,
// DiagControlCharacter, DiagGlobTooComplex, DiagInvalidGlob). A
// discovery's severity says what the problem cost: error, something that
// exists (a skill, a root, a plugin's entries) was not loaded; warning, it
// loaded but not as written, or an option probably does not do what was
// meant.
const (
	DiagRootUnreadable           = "root-unreadable"            // error: a skills root exists but cannot be listed (S12)
	DiagRootTooLarge             = "root-too-large"             // warning: more entries than MaxRootEntries; the rest are skipped (S11)
	DiagParserFailed             = "parser-failed"              // error: the frontmatter parser could not run; the skill is skipped
	DiagNameTooLong              = "name-too-long"              // error: a name over 256 bytes; the skill is skipped (S45)
	DiagDescriptionTooLong       = "description-too-long"       // warning: a description over 4096 characters, cut (S45)
	DiagFileTooLarge             = "file-too-large"             // error: a context file over 1 MiB, skipped (S45)
	DiagPluginRegistryUnreadable = "plugin-registry-unreadable" // error: the plugin registry exists but cannot be read (S20)
	DiagPluginRegistryInvalid    = "plugin-registry-invalid"    // error: the plugin registry is not the JSON S20 reads
	DiagPluginIDInvalid          = "plugin-id-invalid"          // error: a plugin id without @marketplace; its entries are skipped (S20)
	DiagNameCollision            = "name-collision"             // warning: a custom directory's skill lost its name (S26)
	DiagReplyBudget              = "reply-budget"               // warning: the reply was reduced to stay under 64 MiB (S45)
	DiagCustomDirMissing         = "custom-dir-missing"         // warning: a customDirectories entry does not exist (S75)
	DiagManagedName              = "managed-name"               // error: a managed skill's name is not one its agent can have given it; skipped (S63)
)

// diagnostic is a Diagnostic whose message is "<problem>; <fix>", or the
// problem alone when fix is "": the engine's message convention, kept so
// that the message is what it has always been.
func diagnostic(path, code, severity, problem, fix string) Diagnostic {
	msg := problem
	if fix != "" {
		msg += "; " + fix
	}
	return Diagnostic{Path: path, Code: code, Severity: severity, Message: msg, Fix: fix}
}

// warning is a Warning about skillPath made of d.
func warning(skillPath string, d Diagnostic) Warning {
	return Warning{SkillPath: skillPath, Diagnostic: d}
}

// readFailureFix is the fix for a read that failed with code, where one is
// known: a read the host refused (EPERM, which the JS hosts report for a
// read outside Deno's --allow-read, S75) needs the grant; one the system
// refused (EACCES) needs the permissions; a path through a file needs the
// file moved.
func readFailureFix(path, code string) string {
	switch code {
	case EPERM:
		return "the runtime refused to read it: grant read access to " + path + " (Deno: --allow-read=" + path + ")"
	case EACCES:
		return "make " + path + " readable by this user"
	case ENOTDIR:
		return path + " runs through a file: skills folders are directories"
	}
	return ""
}

// readFailureDiagnostic is a read failure of path as a Diagnostic:
// message "<what>: <path> (<CODE>)", today's text, and the fix for the
// code in Fix.
func readFailureDiagnostic(code, severity, what, path, errCode string) Diagnostic {
	return Diagnostic{Path: path, Code: code, Severity: severity, Message: what + ": " + path + " (" + errCode + ")",
		Fix: readFailureFix(path, errCode)}
}

// parserDiagnostic turns a message of the frontmatter parser about file
// (S6, S7, and its rejects: "<file>:<line>: <problem>; <fix>" or
// "<file>: <problem>...") into a Diagnostic with the message as it is. text
// is the decoded file, or a prefix of it holding the frontmatter, for the
// column of an S7 warning ("" for none). body is the message without its
// "<file>:<line>: " prefix. severity is the one for invalid-yaml and other
// warnings (discovery and validate grade them differently); a reject is
// always an error.
func parserDiagnostic(file, msg, text, severity string) (d Diagnostic, body string) {
	d = Diagnostic{Path: file, Code: DiagFrontmatter, Severity: severity, Message: msg}
	rest, ok := strings.CutPrefix(msg, file+":")
	if !ok {
		return d, msg
	}
	body = strings.TrimPrefix(rest, " ")
	i := 0
	for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
		i++
	}
	if i > 0 && strings.HasPrefix(rest[i:], ": ") {
		if n, err := strconv.Atoi(rest[:i]); err == nil {
			d.Line, body = n, rest[i+2:]
		}
	}
	afterProblem := func() string {
		if _, fix, ok := strings.Cut(body, "; "); ok {
			return fix
		}
		return ""
	}
	switch {
	case strings.HasPrefix(body, "invalid YAML ("):
		// "invalid YAML (<reason>); <fix>": a reason holds no "); " (yaml.v3's
		// quote names without spaces), so the first one ends it.
		d.Code = DiagInvalidYAML
		if end := strings.Index(body, "); "); end >= 0 {
			reason := body[len("invalid YAML ("):end]
			d.Fix = body[end+3:]
			if d.Line > 0 && text != "" {
				d.Column = fmrules.Column(reason, lineOf(text, d.Line))
			}
		}
	case strings.HasPrefix(body, "frontmatter is larger than"), strings.HasPrefix(body, "frontmatter is nested deeper"),
		strings.HasPrefix(body, "frontmatter is not closed within"):
		d.Code, d.Severity, d.Fix = DiagFrontmatterLimit, SeverityError, afterProblem()
	case strings.HasPrefix(body, "the frontmatter parser failed"), strings.HasPrefix(body, "the YAML parser could not run"):
		d.Code, d.Severity = DiagParserFailed, SeverityError
	default:
		d.Fix = afterProblem()
	}
	return d, body
}

// lineOf is line n (1-based) of text, without its line break; "" past the
// end.
func lineOf(text string, n int) string {
	for ; n > 1; n-- {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return ""
		}
		text = text[i+1:]
	}
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	if !utf8.ValidString(text) {
		return strings.ToValidUTF8(text, "\uFFFD")
	}
	return text
}

// linkOutsideDiagnostic is S43's warning for file, a link to real outside
// every boundary.
func linkOutsideDiagnostic(file, real string) Diagnostic {
	return Diagnostic{Path: file, Code: DiagLinkOutside, Severity: SeverityError, Message: linkOutsideMessage(file, real),
		Fix: "link the skill folder instead"}
}
