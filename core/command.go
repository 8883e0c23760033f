package core

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Expansion is a /skill:<name> command turned into the message for the
// model (SPEC S35, S36).
type Expansion struct {
	Message string // the SKILL.md body, then "\n\n---\n\nSkill: <path>" and "\nUser: <args>"
	Name    string // the skill's name
	Path    string // the skill's filePath
	Args    string // the text after the name, trimmed ("" when none)
}

// commandPrefix starts a skill command (S35).
const commandPrefix = "/skill:"

// ExpandCommand expands a /skill:<name> [args] command (SPEC S35, S36).
//
// The text is trimmed; it is a command when it starts with "/skill:". The
// name is the longest skill name that the text after "/skill:" starts
// with, followed by white space (any Unicode white space, newlines
// included) or the end (S49: names may hold spaces); the args are the
// rest, trimmed. When the text is not a command, names a skill with
// user-invocable: false (S47), or enable is false, the result is nil and
// no error: the host passes the text on unchanged. A command that names
// no skill is an error, never a silent pass-through (S75): UNKNOWN_SKILL
// with S50's message (the name typed, up to the first white space; "Did
// you mean" and "Available" among the skills a user can invoke), or
// MISSING_NAME when no name follows "/skill:".
//
// The message is the SKILL.md body as [ParseSkillFile] gives it
// (frontmatter stripped, S4 decoding, so CRLF and BOM files work), then
// "\n\n---\n\nSkill: <filePath>", then "\nUser: <args>" when args is not
// empty. The file is read fresh from fsys at filePath. A file that cannot
// be read is NOT_FOUND ("Failed to read skill file: <path> (<CODE>)"); one
// over the frontmatter parser's safety limits is INVALID_ARGUMENT with the
// parser's message.
func ExpandCommand(ctx context.Context, fsys FS, text string, skills []Skill, enable bool) (*Expansion, error) {
	if err := canceled(ctx, "expandCommand"); err != nil {
		return nil, err
	}
	if !enable {
		return nil, nil
	}
	text = strings.TrimSpace(text)
	rest, ok := strings.CutPrefix(text, commandPrefix)
	if !ok {
		return nil, nil
	}
	s := commandSkill(rest, skills)
	if s == nil { // S75
		return nil, unknownCommand(rest, skills)
	}
	if s.DisableUserInvocation { // S47: user-invocable: false passes through
		return nil, nil
	}
	args := strings.TrimSpace(rest[len(s.Name):])
	// S44: the SKILL.md discovery loaded, under S43's boundaries, checked
	// on the file opened; S45: at most 1 MiB.
	body, err := readSkillBody(fsys, s)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(body)
	b.WriteString("\n\n---\n\nSkill: ")
	b.WriteString(s.FilePath)
	if args != "" {
		b.WriteString("\nUser: ")
		b.WriteString(args)
	}
	return &Expansion{Message: b.String(), Name: s.Name, Path: s.FilePath, Args: args}, nil
}

// unknownCommand is the error of a command that names no loaded skill
// (S75): rest is the text after "/skill:".
func unknownCommand(rest string, skills []Skill) *Error {
	name := rest
	if i := strings.IndexFunc(rest, unicode.IsSpace); i >= 0 {
		name = rest[:i]
	}
	if name == "" {
		return errorf(CodeMissingName, "/skill: requires a skill name: /skill:<name>")
	}
	invocable := make([]Skill, 0, len(skills))
	for i := range skills {
		if !skills[i].DisableUserInvocation {
			invocable = append(invocable, skills[i])
		}
	}
	return unknownSkill(name, invocable)
}

// commandSkill is the skill a command names (S35, S49): among the skills
// whose name, followed by white space or the end, starts rest (the text
// after "/skill:"), the one with the longest name, so a name with spaces
// ("Ahrefs Automation") is matched whole; the first of equal names wins.
// For a name without spaces this is S35's "the name runs to the first
// whitespace".
func commandSkill(rest string, skills []Skill) *Skill {
	var best *Skill
	for i := range skills {
		n := skills[i].Name
		if n == "" || !strings.HasPrefix(rest, n) || best != nil && len(n) <= len(best.Name) {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(rest[len(n):]); len(rest) == len(n) || unicode.IsSpace(r) {
			best = &skills[i]
		}
	}
	return best
}

// Command is one entry of a host's command list (SPEC S37).
type Command struct {
	Name        string // "skill:<name>"
	Description string
	Path        string // the skill's filePath
}

// CommandList is what [Commands] returns.
type CommandList struct {
	Commands []Command
}

// Commands lists one /skill:<name> command per skill, in S15 order, for a
// host's autocomplete (SPEC S37), except skills with user-invocable: false
// (S47). Names are listed as they are, spaces included (S49). Whether commands are enabled is the
// host's business: the list is the same either way.
func Commands(skills []Skill) *CommandList {
	sorted := slices.Clone(skills)
	sortSkills(sorted)
	out := &CommandList{Commands: make([]Command, 0, len(sorted))}
	for i := range sorted {
		if sorted[i].DisableUserInvocation { // S47
			continue
		}
		out.Commands = append(out.Commands, Command{Name: "skill:" + sorted[i].Name,
			Description: sorted[i].Description, Path: sorted[i].FilePath})
	}
	return out
}
