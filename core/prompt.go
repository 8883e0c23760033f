package core

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PromptOptions are the options of [RenderPrompt] (SPEC S34).
type PromptOptions struct {
	// ReadTool says the agent has a read tool. Without one the model could
	// not load a skill, so the list is omitted entirely. Note that the zero
	// value is false; the JSON request defaults it to true.
	ReadTool bool
	// Format is "markdown" (also for "") or "xml".
	Format string
	// MaxChars bounds the length of Text, counted as JavaScript counts a
	// string's length (UTF-16 code units), so text.length <= maxChars holds
	// in every host. 0 means no bound; a negative value is an error.
	MaxChars int
}

// Prompt is the skills block of a system prompt (SPEC S34).
type Prompt struct {
	Text      string
	Format    string   // the format used: "markdown" or "xml"
	Omitted   []string // skills left out of Text, in S15 order
	Shortened []string // skills in Text whose description was cut, in S15 order
}

// Prompt formats (SPEC S34).
const (
	FormatMarkdown = "markdown"
	FormatXML      = "xml"
)

// minDescriptionCap is the shortest a description is cut to (counting the
// "…") before whole skills are dropped instead: a description cut shorter
// tells the model too little to be worth its place.
const minDescriptionCap = 32

// promptIntro is the one line under "# Skills" in the markdown format.
const promptIntro = "Skills are folders of instructions for specific tasks. When a task matches a skill's description, " +
	"read skill://<name> with the read tool and follow it before you start."

// RenderPrompt renders the skills block of a system prompt (SPEC S34).
//
// Skills appear in S15 order (the input is sorted, not trusted to be).
// Names and descriptions are put on one line: every run of whitespace
// (newlines included) becomes one space, so a description cannot forge a
// heading or an element. The result is "" when there is no read tool or no
// skill to show; then every skill is reported in Omitted.
//
// markdown:
//
//	# Skills
//
//	<intro line>
//
//	## <name>
//	<description>            (no line when the description is empty)
//
// xml, the block the Agent Skills reference (skills-ref to-prompt) suggests,
// with &, <, >, " and ' escaped and characters XML 1.0 forbids replaced by
// U+FFFD:
//
//	<available_skills>
//	<skill>
//	<name>
//	<name>
//	</name>
//	<description>
//	<description>
//	</description>
//	<location>
//	<filePath>
//	</location>
//	</skill>
//	</available_skills>
//
// There is no trailing newline in either format.
//
// # Budget
//
// With MaxChars > 0 the text never exceeds it. When the full text is too
// long:
//
//  1. Keep the longest prefix of the skills (in S15 order) that fits with
//     every description cut to at most 32 characters; the rest are dropped
//     (Omitted). If not even one fits, the text is "".
//  2. For the skills kept, find the largest cap C (binary search) such that
//     cutting every description longer than C characters fits; the longest
//     descriptions are thus cut first, all to the same length. A cut
//     description is its first C-1 characters, trailing whitespace removed,
//     then "…" (Shortened).
//
// So the budget goes to as many skills as possible first, then to their
// descriptions as evenly as possible, and the same input always gives the
// same text. Characters are counted as JavaScript does (UTF-16 code units)
// and a cut never splits one.
func RenderPrompt(skills []Skill, opts PromptOptions) (*Prompt, error) {
	format := opts.Format
	if format == "" {
		format = FormatMarkdown
	}
	if format != FormatMarkdown && format != FormatXML {
		return nil, errorf(CodeInvalidArgument, `Unknown prompt format: "`+format+`" (use "markdown" or "xml")`)
	}
	if opts.MaxChars < 0 {
		return nil, errorf(CodeInvalidArgument, "maxChars must not be negative")
	}
	sorted := slices.DeleteFunc(slices.Clone(skills), func(s Skill) bool { return s.DisableModelInvocation }) // S47
	sortSkills(sorted)
	items := make([]promptItem, len(sorted))
	for i := range sorted {
		items[i] = promptItem{name: sorted[i].Name, desc: oneLine(sorted[i].Description), location: sorted[i].FilePath}
	}
	p := &Prompt{Format: format, Omitted: []string{}, Shortened: []string{}}
	if !opts.ReadTool || len(items) == 0 {
		for _, it := range items {
			p.Omitted = append(p.Omitted, it.name)
		}
		return p, nil
	}
	r := promptRenderer{format: format, items: items}
	full := r.render(len(items), -1)
	if opts.MaxChars == 0 || utf16Len(full) <= opts.MaxChars {
		p.Text = full
		return p, nil
	}
	// Step 1: how many skills fit with descriptions at the minimum cap.
	// Lengths grow with the number of skills, so search for the count.
	keep := sort.Search(len(items)+1, func(k int) bool {
		return k > 0 && utf16Len(r.render(k, minDescriptionCap)) > opts.MaxChars
	}) - 1
	if keep < 0 {
		keep = 0
	}
	for _, it := range items[keep:] {
		p.Omitted = append(p.Omitted, it.name)
	}
	if keep == 0 {
		return p, nil
	}
	// Step 2: the largest common cap that fits for the skills kept.
	longest := 0
	for _, it := range items[:keep] {
		longest = max(longest, utf16Len(it.desc))
	}
	capC := minDescriptionCap
	if longest > minDescriptionCap {
		// Lengths grow with the cap; find the first cap that no longer fits.
		capC = minDescriptionCap + sort.Search(longest-minDescriptionCap+1, func(i int) bool {
			return utf16Len(r.render(keep, minDescriptionCap+i)) > opts.MaxChars
		}) - 1
	}
	p.Text = r.render(keep, capC)
	for _, it := range items[:keep] {
		if utf16Len(it.desc) > capC {
			p.Shortened = append(p.Shortened, it.name)
		}
	}
	return p, nil
}

type promptItem struct {
	name, desc, location string
}

type promptRenderer struct {
	format string
	items  []promptItem
	b      strings.Builder
}

// render renders the first n items with descriptions cut to capC
// characters (no cut when capC < 0).
func (r *promptRenderer) render(n, capC int) string {
	r.b.Reset()
	b := &r.b
	if r.format == FormatXML {
		b.WriteString("<available_skills>")
		for _, it := range r.items[:n] {
			b.WriteString("\n<skill>\n<name>\n")
			xmlEscape(b, oneLine(it.name))
			b.WriteString("\n</name>\n<description>\n")
			xmlEscape(b, cutDescription(it.desc, capC))
			b.WriteString("\n</description>\n<location>\n")
			xmlEscape(b, it.location)
			b.WriteString("\n</location>\n</skill>")
		}
		b.WriteString("\n</available_skills>")
		return b.String()
	}
	b.WriteString("# Skills\n\n")
	b.WriteString(promptIntro)
	for _, it := range r.items[:n] {
		b.WriteString("\n\n## ")
		b.WriteString(oneLine(it.name))
		if d := cutDescription(it.desc, capC); d != "" {
			b.WriteByte('\n')
			b.WriteString(d)
		}
	}
	return b.String()
}

// cutDescription returns d when it has at most capC characters (UTF-16
// code units) or capC < 0; else its longest prefix of at most capC-1
// characters, trailing whitespace removed, followed by "…".
func cutDescription(d string, capC int) string {
	if capC < 0 || utf16Len(d) <= capC {
		return d
	}
	n, end := 0, 0
	for i, r := range d {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > capC-1 {
			break
		}
		n += w
		end = i + utf8.RuneLen(r)
	}
	return strings.TrimRightFunc(d[:end], unicode.IsSpace) + "…"
}

// utf16Len is the length of s as JavaScript counts it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// oneLine collapses every run of whitespace in s into one space and trims
// the ends.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// xmlEscape writes s escaped for XML text, replacing characters XML 1.0
// does not allow with U+FFFD.
func xmlEscape(b *strings.Builder, s string) {
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&apos;")
		case r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0xD7FF) ||
			(r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000:
			b.WriteRune(r)
		default:
			b.WriteRune(utf8.RuneError)
		}
	}
}
