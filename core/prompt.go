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
	// SourceOrder lists sources ("<provider>:<level>") in discovery order,
	// highest priority first, as [SourceOrder] gives them; the budget drops
	// skills of later sources first (S53). nil means SourceOrder of
	// [DefaultOptions]. A source not listed ranks after every listed one,
	// before custom directories, which always rank last.
	SourceOrder []string
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
// "…") before whole skills are dropped instead (S53): a description cut
// shorter tells the model too little to be worth its place.
const minDescriptionCap = 80

// promptIntro is the one line under "# Skills" in the markdown format.
const promptIntro = "Skills are folders of instructions for specific tasks. When a task matches a skill's description, " +
	"read skill://<name> with the read tool and follow it before you start."

// RenderPrompt renders the skills block of a system prompt (SPEC S34, S46,
// S47, S53).
//
// Skills appear in S15 order (the input is sorted, not trusted to be);
// skills with disable-model-invocation: true are left out (S47) and not
// reported in Omitted. Names and descriptions are put on one line: every
// run of whitespace (newlines included) becomes one space. The result is ""
// when there is no read tool or no skill to show; then every skill is
// reported in Omitted.
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
// The structure cannot be forged (S46): a description that would start a
// block of its own (a heading "#", a fence "```" or "~~~", an HTML block
// "<", and also a quote, a list item, a thematic break or a table row) has
// its first character escaped with "\", which CommonMark renders as the
// character itself. Names are rendered literally: the model must type them
// in skill://<name>, and on one line inside a heading they cannot open a
// block.
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
// # Budget (S53)
//
// With MaxChars > 0 the text never exceeds it. When the full text is too
// long:
//
//  1. Descriptions are shortened, longest first: the largest cap C of at
//     least 80 characters (binary search) such that cutting every
//     description longer than C fits. A cut description is its first C-1
//     characters, trailing whitespace removed, then "…" (Shortened).
//  2. If even C = 80 does not fit, whole skills are dropped (Omitted), the
//     lowest priority first: custom directories, then the sources in the
//     reverse of SourceOrder, and inside one source from the end of S15
//     order; as few as needed with descriptions at 80. Then step 1 runs
//     again for the skills kept. If not even one skill fits, the text is "".
//
// So the budget goes first to the skills that would win a name contest,
// then to their descriptions as evenly as possible, and the same input
// always gives the same text. Characters are counted as JavaScript does
// (UTF-16 code units) and a cut never splits one.
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
	r := promptRenderer{format: format}
	full := r.render(items, -1)
	if opts.MaxChars == 0 || utf16Len(full) <= opts.MaxChars {
		p.Text = full
		return p, nil
	}
	fits := func(list []promptItem, capC int) bool { return utf16Len(r.render(list, capC)) <= opts.MaxChars }
	kept := items
	if !fits(items, minDescriptionCap) {
		// Step 2: drop the fewest skills, lowest priority first. The text
		// shrinks as more are dropped, so search for the count.
		drop := dropOrder(sorted, opts.SourceOrder)
		gone := make([]bool, len(items))
		keepAllBut := func(k int) []promptItem {
			clear(gone)
			for _, i := range drop[:k] {
				gone[i] = true
			}
			out := make([]promptItem, 0, len(items)-k)
			for i := range items {
				if !gone[i] {
					out = append(out, items[i])
				}
			}
			return out
		}
		k := sort.Search(len(items), func(k int) bool { return fits(keepAllBut(k), minDescriptionCap) })
		if k == len(items) { // not even one skill fits
			for _, it := range items {
				p.Omitted = append(p.Omitted, it.name)
			}
			return p, nil
		}
		kept = keepAllBut(k)
		for i, it := range items {
			if gone[i] {
				p.Omitted = append(p.Omitted, it.name)
			}
		}
	}
	// Step 1: the largest common cap of at least 80 that fits.
	longest := 0
	for _, it := range kept {
		longest = max(longest, utf16Len(it.desc))
	}
	capC := minDescriptionCap
	if longest > minDescriptionCap {
		// Lengths grow with the cap; find the first cap that no longer fits.
		capC = minDescriptionCap + sort.Search(longest-minDescriptionCap+1, func(i int) bool {
			return !fits(kept, minDescriptionCap+i)
		}) - 1
	}
	p.Text = r.render(kept, capC)
	for _, it := range kept {
		if utf16Len(it.desc) > capC {
			p.Shortened = append(p.Shortened, it.name)
		}
	}
	return p, nil
}

// dropOrder lists the indexes of sorted (skills in S15 order) in the order
// the budget drops them (S53): custom directories first, then the sources
// from the last of order to the first, a source's skills from the end of
// S15 order. Sources missing from order come after custom directories and
// before the listed ones.
func dropOrder(sorted []Skill, order []string) []int {
	if order == nil {
		order = SourceOrder(DefaultOptions())
	}
	rank := func(s *Skill) int { // higher is dropped first
		if strings.HasPrefix(s.Source, "custom:") {
			return len(order) + 1
		}
		if i := slices.Index(order, s.Source); i >= 0 {
			return i
		}
		return len(order)
	}
	idx := make([]int, len(sorted))
	for i := range idx {
		idx[i] = i
	}
	sortStableFunc(idx, func(a, b int) int {
		if ra, rb := rank(&sorted[a]), rank(&sorted[b]); ra != rb {
			return rb - ra
		}
		return b - a // the end of S15 order first
	})
	return idx
}

// SourceOrder lists the sources ("<provider>:<level>") of the provider
// table for opts in discovery order (S17, S19): providers by priority, and
// inside one provider its levels in the order S17 scans them. Custom
// directories ("custom:user") come after all of them and are not listed.
func SourceOrder(opts Options) []string {
	var out []string
	for _, p := range providerTable(opts) {
		levels := []string{"project", "user"}
		if p.userFirst {
			levels = []string{"user", "project"}
		}
		for _, l := range levels {
			out = append(out, p.id+":"+l)
		}
	}
	return out
}

type promptItem struct {
	name, desc, location string
}

type promptRenderer struct {
	format string
	b      strings.Builder
}

// render renders items with descriptions cut to capC characters (no cut
// when capC < 0).
func (r *promptRenderer) render(items []promptItem, capC int) string {
	r.b.Reset()
	b := &r.b
	if r.format == FormatXML {
		b.WriteString("<available_skills>")
		for _, it := range items {
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
	for _, it := range items {
		b.WriteString("\n\n## ")
		b.WriteString(oneLine(it.name))
		if d := cutDescription(it.desc, capC); d != "" {
			b.WriteByte('\n')
			writeInert(b, d) // S46
		}
	}
	return b.String()
}

// writeInert writes one line of text that must stay a paragraph line of
// markdown (S46). A line that would instead start another CommonMark block
// gets one of its characters escaped with "\\" (CommonMark renders an
// escaped ASCII punctuation character as the character itself):
//
//   - the first character when it is "#" (a heading), "`" or "~" (a
//     fence), "<" (an HTML block), ">" (a quote), "-", "+" or "*" (a list
//     item or a thematic break), "_" (a thematic break), "=" (a setext
//     underline) or "|" (a table row);
//   - the "." or ")" after up to 9 leading digits (an ordered list item).
//
// Escaping a few harmless lines too ("-1", "<3") costs one backslash;
// missing one would let a description end the skills list. line is not
// empty and holds no newline (see oneLine).
func writeInert(b *strings.Builder, line string) {
	switch line[0] {
	case '#', '`', '~', '<', '>', '-', '+', '*', '_', '=', '|':
		b.WriteByte('\\')
		b.WriteString(line)
		return
	}
	i := 0
	for i < len(line) && i < 9 && '0' <= line[i] && line[i] <= '9' {
		i++
	}
	if i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')') {
		b.WriteString(line[:i])
		b.WriteByte('\\')
		b.WriteString(line[i:])
		return
	}
	b.WriteString(line)
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
