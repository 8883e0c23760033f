package benchws

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// The SKILL.md files of the generated workspaces: frontmatter with the
// shapes of published collections, at their rates (shapes.json, described
// in docs/bench/WORKSPACE.md). js/bench/workspace.mjs's skillFile is this
// function written again: the two give the same bytes for the same index
// and name (TestSkillFileLockstep and js/test/bench-workspace.test.js
// compare both with testdata/skillfiles.sum).
//
// Which shapes file i has is chosen by a Weyl sequence per dimension (the
// fractional part of (i+1)·frac(√p), one prime p per dimension), so every
// prefix of the files holds each shape at its rate, rare ones included;
// what the text says (its words, lengths, list items) comes from a
// mulberry32 PRNG seeded by i. Both use only operations whose IEEE results
// Go and JavaScript agree on.

//go:embed shapes.json
var shapesJSON []byte

// Shapes is shapes.json: for each dimension, its categories with a weight
// each, in order.
type Shapes struct {
	File             [][2]any  `json:"file"`
	CRLF             [][2]any  `json:"crlf"`
	Description      [][2]any  `json:"description"`
	Nested           [][2]any  `json:"nested"`
	AllowedTools     [][2]any  `json:"allowedTools"`
	KeysOutOf        float64   `json:"keysOutOf"`
	Keys             [][2]any  `json:"keys"`
	ListStyle        [][2]any  `json:"listStyle"`
	DescriptionChars Quantiles `json:"descriptionChars"`
	BodyBytes        Quantiles `json:"bodyBytes"`
	Words            []string  `json:"words"`
}

// Quantiles is a distribution given by some of its quantiles, linear
// between them.
type Quantiles struct {
	Quantiles []float64 `json:"quantiles"`
	Values    []float64 `json:"values"`
}

// at is the value at u in [0, 1).
func (q Quantiles) at(u float64) int {
	k := 0
	for k+2 < len(q.Quantiles) && u >= q.Quantiles[k+1] {
		k++
	}
	v := q.Values[k] + (q.Values[k+1]-q.Values[k])*(u-q.Quantiles[k])/(q.Quantiles[k+1]-q.Quantiles[k])
	return int(math.Floor(v))
}

var shapes = func() Shapes {
	var s Shapes
	if err := json.Unmarshal(shapesJSON, &s); err != nil {
		panic("benchws: shapes.json: " + err.Error())
	}
	return s
}()

// primes give each dimension its Weyl step: file, crlf, description,
// nested, allowedTools, then one per entry of keys.
var primes = []float64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97}

// weyl is file i's point in [0, 1) on dimension d.
func weyl(d, i int) float64 {
	a := math.Sqrt(primes[d])
	a -= math.Floor(a)
	x := float64(i+1) * a
	return x - math.Floor(x)
}

// pick is the category of table at point u.
func pick(table [][2]any, u float64) string {
	total := 0.0
	for _, c := range table {
		total += c[1].(float64)
	}
	x, cum := u*total, 0.0
	for _, c := range table {
		cum += c[1].(float64)
		if x < cum {
			return c[0].(string)
		}
	}
	return table[len(table)-1][0].(string)
}

// mulberry32 is the PRNG of the text, as workspace.mjs has it.
type mulberry32 uint32

func (m *mulberry32) float() float64 {
	*m += 0x6d2b79f5
	t := uint32(*m)
	t = (t ^ t>>15) * (t | 1)
	t ^= t + (t^t>>7)*(t|61)
	return float64(t^t>>14) / 4294967296
}

func (m *mulberry32) int(n int) int { return int(math.Floor(m.float() * float64(n))) }

// SkillFile returns the i-th SKILL.md of a generated workspace, for a skill
// folder called name.
func SkillFile(i int, name string) []byte {
	r := mulberry32(uint32(i)*0x9e3779b9 + 0x5eed)
	word := func() string { return shapes.Words[r.int(len(shapes.Words))] }
	words := func(n int) string {
		ws := make([]string, n)
		for k := range ws {
			ws[k] = word()
		}
		return strings.Join(ws, " ")
	}
	list := func(key string, n int) string {
		items := make([]string, n)
		for k := range items {
			items[k] = word()
		}
		if pick(shapes.ListStyle, r.float()) == "flow" {
			return key + ": [" + strings.Join(items, ", ") + "]\n"
		}
		return key + ":\n  - " + strings.Join(items, "\n  - ") + "\n"
	}
	var b strings.Builder
	file := pick(shapes.File, weyl(0, i))
	if file != "none" {
		b.WriteString("---\nname: " + name + "\n")
		chars := shapes.DescriptionChars.at(r.float())
		style := pick(shapes.Description, weyl(2, i))
		if file == "invalid" {
			style = "invalid"
		}
		text := "Use this skill to"
		if style == "invalid" {
			text = "Use when: you need to"
		}
		// The additions below (the last word's overshoot, a dash, a
		// quotation) come to about 10 characters on average.
		for len(text)+10 < chars {
			text += " " + word()
		}
		switch style {
		case "plain", "double-quoted", "single-quoted", "invalid":
			if r.int(5) == 0 { // a character outside ASCII, as people write
				text += " — " + words(2)
			}
			text += "."
			switch style {
			case "double-quoted":
				if r.int(4) == 0 {
					text += ` Say \"` + word() + `\".`
				}
				text = `"` + text + `"`
			case "single-quoted":
				text = "'" + text + " It''s " + word() + ".'"
			}
			b.WriteString("description: " + text + "\n")
		default: // a scalar over several lines
			head := map[string]string{"folded": " >", "literal": " |", "continued": ""}[style]
			if style == "folded" && r.int(2) == 0 {
				head = " >-"
			}
			b.WriteString("description:" + head + "\n")
			for _, line := range wrap(text+".", 76) {
				b.WriteString("  " + line + "\n")
			}
		}
		switch pick(shapes.AllowedTools, weyl(4, i)) {
		case "string":
			b.WriteString("allowed-tools: Read, Grep, Bash\n")
		case "list":
			b.WriteString(list("allowed-tools", 2+r.int(3)))
		}
		for k, kw := range shapes.Keys {
			key := kw[0].(string)
			if weyl(5+k, i)*shapes.KeysOutOf >= kw[1].(float64) {
				continue
			}
			switch key {
			case "license":
				b.WriteString("license: " + []string{"MIT", "Apache-2.0", "Complete terms in LICENSE.txt"}[r.int(3)] + "\n")
			case "version":
				b.WriteString(fmt.Sprintf("version: 1.%d.0\n", r.int(10)))
			case "triggers", "tags", "agents", "compatible_tools":
				b.WriteString(list(key, 2+r.int(3)))
			case "author":
				b.WriteString(fmt.Sprintf("author: team-%d\n", r.int(20)))
			case "command":
				b.WriteString("command: /" + word() + "\n")
			case "compatibility":
				b.WriteString("compatibility: Works with " + words(4) + "\n")
			case "effort":
				b.WriteString("effort: " + []string{"low", "medium", "high"}[r.int(3)] + "\n")
			case "disable-model-invocation":
				b.WriteString("disable-model-invocation: true\n")
			case "context":
				b.WriteString("context: fork\n")
			case "argument-hint":
				b.WriteString(`argument-hint: "[` + word() + `]"` + "\n")
			default: // type, category
				b.WriteString(key + ": " + word() + "\n")
			}
		}
		switch pick(shapes.Nested, weyl(3, i)) {
		case "requires-flow":
			items := []string{"rube"}
			if r.int(4) == 0 {
				items = append(items, word())
			}
			b.WriteString("requires:\n  mcp: [" + strings.Join(items, ", ") + "]\n")
		case "requires-block":
			b.WriteString("requires:\n  mcp:\n    - rube\n")
			if r.int(2) == 0 {
				b.WriteString("    - " + word() + "\n")
			}
		case "metadata":
			b.WriteString(fmt.Sprintf("metadata:\n  author: team-%d\n  version: \"1.%d\"\n", r.int(20), r.int(10)))
			if r.int(2) == 0 {
				b.WriteString("  category: " + word() + "\n")
			}
		case "metadata-sequence-of-mappings":
			b.WriteString("metadata:\n  contributors:\n")
			for k := 0; k < 2; k++ {
				b.WriteString("    - name: " + word() + "\n      org: " + word() + "\n")
			}
		}
		b.WriteString("---\n\n")
	}
	size := shapes.BodyBytes.at(r.float())
	start := b.Len()
	b.WriteString("# " + name + "\n\n")
	for b.Len()-start < size {
		b.WriteString(words(14) + ".\n")
	}
	out := b.String()
	if pick(shapes.CRLF, weyl(1, i)) == "crlf" {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	return []byte(out)
}

// wrap splits text (ASCII, words separated by one space) into lines of at
// most width bytes where its words allow.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Split(text, " ") {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) > width:
			lines = append(lines, line)
			line = w
		default:
			line += " " + w
		}
	}
	return append(lines, line)
}
