package core

import (
	"strconv"
	"unicode/utf8"
)

// The reply budget of SPEC S45: a discover reply stays under 64 MiB for
// any tree. [Discover] measures an upper bound of its JSON (the wire's
// encoding: keys, punctuation and every string escaped as JSON.stringify
// escapes it) and, while it is over MaxReplyBytes, reduces the result in
// this order, with one warning per step that changed anything, naming how
// many skills it affected:
//
//  1. the frontmatter of project-level skills becomes {};
//  2. the frontmatter of every skill becomes {};
//  3. project-level descriptions are cut to 200 characters;
//  4. project-level skills are not loaded, from the end of the S15 order,
//     until the reply fits (they are not listed in shadowed: that would
//     grow it again).
//
// User-level and custom-directory skills are never dropped, and no tree
// makes discovery fail. The warnings have skillPath "".

// MaxReplyBytes is the S45 budget of a discover reply.
const MaxReplyBytes = 64 << 20

// replyOverhead bounds what a skill's JSON adds to its strings and
// frontmatter: its keys, quotes, commas, booleans.
const replyOverhead = 320

// warningOverhead bounds what a warning's JSON adds to its strings: keys,
// quotes, commas, line and column.
const warningOverhead = 128

// budgetCutChars is what step 3 leaves of a project-level description.
const budgetCutChars = 200

// applyReplyBudget reduces res as the package comment above says.
func applyReplyBudget(res *Result) {
	if resultBound(res) <= MaxReplyBytes {
		return // the usual case, known without measuring every string's escapes
	}
	if size := resultSize(res); size > MaxReplyBytes {
		cutToBudget(res, size)
	}
}

// cutToBudget takes the steps above from a reply of size bytes. A function
// of its own, so that the usual discovery, which never takes them, does not
// have V8 compile them (6 KB of wasm).
//
//go:noinline
func cutToBudget(res *Result, size int) {
	warn := func(n int, what string) {
		res.Warnings = append(res.Warnings, warning("", Diagnostic{Code: DiagReplyBudget, Severity: SeverityWarning,
			Message: "The skills found would make a reply over 64 MiB: " + strconv.Itoa(n) + " " + what +
				" (S45; move large or generated skills out of the project)",
			Fix: "move large or generated skills out of the project"}))
		size += replyOverhead + len(what)
	}
	project := func(s *Skill) bool { return s.Level == "project" && s.Source != "custom:user" }
	// Steps 1 and 2: frontmatter.
	for step, pick := range []func(*Skill) bool{project, func(*Skill) bool { return true }} {
		if size <= MaxReplyBytes {
			return
		}
		n := 0
		for i := range res.Skills {
			s := &res.Skills[i]
			if pick(s) && s.Frontmatter.Len() > 0 {
				size -= frontmatterSize(s.Frontmatter) - 2
				s.Frontmatter = &Map{}
				n++
			}
		}
		if n > 0 {
			warn(n, []string{"project-level skills have their frontmatter left out ({})",
				"skills have their frontmatter left out ({})"}[step])
		}
	}
	// Step 3: project-level descriptions.
	if size > MaxReplyBytes {
		n := 0
		for i := range res.Skills {
			s := &res.Skills[i]
			if project(s) {
				if short := firstRunes(s.Description, budgetCutChars); len(short) < len(s.Description) {
					size -= jsonStringSize(s.Description) - jsonStringSize(short)
					s.Description = short
					n++
				}
			}
		}
		if n > 0 {
			warn(n, "project-level descriptions are cut to 200 characters")
		}
	}
	// Step 4: project-level skills, from the end.
	if size > MaxReplyBytes {
		n := 0
		for i := len(res.Skills) - 1; i >= 0 && size > MaxReplyBytes; i-- {
			if project(&res.Skills[i]) {
				size -= skillSize(&res.Skills[i])
				res.Skills = append(res.Skills[:i], res.Skills[i+1:]...)
				n++
			}
		}
		if n > 0 {
			warn(n, "project-level skills are not loaded")
		}
	}
}

// resultSize is an upper bound of the JSON of res.
func resultSize(res *Result) int {
	n := 64
	for i := range res.Skills {
		n += skillSize(&res.Skills[i])
	}
	for _, w := range res.Warnings {
		n += warningOverhead + jsonStringSize(w.SkillPath) + jsonStringSize(w.Path) + jsonStringSize(w.Code) +
			jsonStringSize(w.Severity) + jsonStringSize(w.Message) + jsonStringSize(w.Fix)
	}
	for _, s := range res.Shadowed {
		n += 64 + jsonStringSize(s.Name) + jsonStringSize(s.FilePath) + jsonStringSize(s.Source) +
			jsonStringSize(s.Reason) + jsonStringSize(s.Winner)
	}
	return n
}

// resultBound is a coarser upper bound of the JSON of res than resultSize,
// from string lengths alone: no byte becomes more than six in a JSON string
// (a control character's \uXXXX; a byte of invalid UTF-8 becomes the three
// of U+FFFD). Measuring every string exactly cost 3% of discovery in the
// wasm module, for replies that are nearly always far below the
// budget; resultSize runs only when this bound is over it.
func resultBound(res *Result) int {
	n := 64
	for i := range res.Skills {
		s := &res.Skills[i]
		n += replyOverhead + frontmatterSize(s.Frontmatter) + 9*2 + 6*(len(s.Name)+len(s.Description)+
			len(s.FilePath)+len(s.BaseDir)+len(s.Source)+len(s.Provider)+len(s.ProviderName)+len(s.Level)+len(s.SourcePath))
		for _, l := range [][]string{s.Contexts, s.Globs} {
			for _, x := range l {
				n += 3 + 6*len(x)
			}
		}
	}
	for _, w := range res.Warnings {
		n += warningOverhead + 12 + 6*(len(w.SkillPath)+len(w.Path)+len(w.Code)+len(w.Severity)+len(w.Message)+len(w.Fix))
	}
	for _, s := range res.Shadowed {
		n += 74 + 6*(len(s.Name)+len(s.FilePath)+len(s.Source)+len(s.Reason)+len(s.Winner))
	}
	return n
}

// skillSize is an upper bound of the JSON of one skill.
func skillSize(s *Skill) int {
	n := replyOverhead + frontmatterSize(s.Frontmatter)
	for _, f := range []string{s.Name, s.Description, s.FilePath, s.BaseDir, s.Source, s.Provider,
		s.ProviderName, s.Level, s.SourcePath} {
		n += jsonStringSize(f)
	}
	for _, l := range [][]string{s.Contexts, s.Globs} {
		for _, x := range l {
			n += 1 + jsonStringSize(x)
		}
	}
	return n
}

// frontmatterSize is an upper bound of the JSON of a frontmatter.
func frontmatterSize(m *Map) int {
	if m == nil {
		return 2
	}
	if m.raw != "" {
		return len(m.raw)
	}
	if m.jsonSize > 0 {
		return m.jsonSize
	}
	return valueSize(m, 0)
}

// valueSize is an upper bound of the JSON of v.
func valueSize(v Value, depth int) int {
	switch v := v.(type) {
	case string:
		return jsonStringSize(v)
	case []Value:
		n := 2
		for _, e := range v {
			n += 1 + valueSize(e, depth+1)
		}
		return n
	case *Map:
		if v == nil {
			return 4
		}
		if v.raw != "" {
			return len(v.raw)
		}
		n := 2
		for i, k := range v.keys {
			n += 2 + jsonStringSize(k) + valueSize(v.vals[i], depth+1)
		}
		return n
	}
	return 32 // null, a boolean or a number
}

// jsonStringSize is the length of s as a JSON string: quotes, escapes
// (\uXXXX for a control character without a short form) and U+FFFD for
// each byte of invalid UTF-8. Valid text is counted byte by byte from
// jsonWidth, without decoding it (the 720-folder hostile tree has 46
// MB of frontmatter to measure; the decoding loop was a third of the
// module's discovery time).
func jsonStringSize(s string) int {
	n := 2
	if !utf8.ValidString(s) {
		return n + invalidJSONStringSize(s)
	}
	for i := 0; i < len(s); i++ {
		n += int(jsonWidth[s[i]])
	}
	return n
}

// jsonWidth is what one byte of valid UTF-8 adds to a JSON string.
var jsonWidth = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			t[c] = 2
		case c < 0x20:
			t[c] = 6
		default:
			t[c] = 1
		}
	}
	return t
}()

// invalidJSONStringSize is jsonStringSize of s, without its quotes, for
// text that holds invalid UTF-8.
func invalidJSONStringSize(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			n += int(jsonWidth[c])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += 3
		} else {
			n += size
		}
		i += size
	}
	return n
}
