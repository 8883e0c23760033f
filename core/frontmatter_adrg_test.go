package core

import (
	"strings"
	"testing"

	"github.com/adrg/frontmatter"
)

// This file proves findFrontmatter, core's delimiter rule, equal to
// github.com/adrg/frontmatter's YAML format (SPEC S5), which the complete
// path (internal/frontmatter) uses and the wasm engine module does not
// link: adrg pulls yaml.v2, TOML and encoding/json in and costs init time.

// adrgSplit runs adrg/frontmatter with its YAML delimiters only (`---yaml`
// is a format of its own in adrg's defaults, and SPEC S5 says it opens
// nothing) and reports the bytes it would hand to the YAML decoder, the rest
// of the text, and whether it found a frontmatter.
func adrgSplit(t testing.TB, text string) (yamlText, rest string, found bool) {
	format := frontmatter.NewFormat("---", "---", func(b []byte, _ any) error {
		yamlText, found = string(b), true
		return nil
	})
	var v any
	out, err := frontmatter.Parse(strings.NewReader(text), &v, format)
	if err != nil {
		t.Fatalf("adrg/frontmatter: %v", err)
	}
	return yamlText, string(out), found
}

// checkSplit compares findFrontmatter with adrg/frontmatter on raw, once
// S4-decoded (adrg knows only \n line ends, findFrontmatter also \r\n and
// \r, which S4 turns into \n), and findFrontmatter on the raw bytes with
// findFrontmatter on their decoding: the same lines, the same outcome.
func checkSplit(t testing.TB, raw string) {
	text := DecodeText([]byte(raw))
	rawSpan, span := findFrontmatter([]byte(strings.TrimPrefix(raw, "\xEF\xBB\xBF"))), findFrontmatter(text)
	if (rawSpan.state == fmClosed) != (span.state == fmClosed) || rawSpan.line != span.line {
		t.Fatalf("findFrontmatter(%q) = %+v, on its decoding %+v", raw, rawSpan, span)
	}
	wantYAML, wantRest, wantFound := adrgSplit(t, text)
	gotYAML, start, gotRest, gotFound := splitFrontmatter(text)
	if !gotFound {
		gotRest = text // S5: without both delimiters the body is the whole text
	}
	if gotFound != wantFound || gotYAML != wantYAML || gotRest != wantRest {
		t.Fatalf("splitFrontmatter(%q) = %v %q %q, adrg/frontmatter = %v %q %q",
			text, gotFound, gotYAML, gotRest, wantFound, wantYAML, wantRest)
	}
	if gotFound && text[start:start+len(gotYAML)] != gotYAML {
		t.Fatalf("splitFrontmatter(%q): start %d does not locate the YAML", text, start)
	}
}

func TestSplitFrontmatter_adrg_S5(t *testing.T) {
	t.Parallel()
	for _, text := range splitSeeds {
		checkSplit(t, text)
	}
}

// TestSplitFrontmatter_adrgExhaustive compares every text of up to five
// lines drawn from lines that matter to the delimiter rules, with and
// without a final newline.
func TestSplitFrontmatter_adrgExhaustive(t *testing.T) {
	t.Parallel()
	lines := []string{"---", "", "a: 1", " --- ", "---a", "----", "\t", "\u00a0---", "\r", "--- #"}
	n := 0
	var rec func(prefix []string)
	rec = func(prefix []string) {
		text := strings.Join(prefix, "\n")
		checkSplit(t, text)
		checkSplit(t, text+"\n")
		n += 2
		if len(prefix) == 5 {
			return
		}
		for _, l := range lines {
			rec(append(prefix, l))
		}
	}
	rec(nil)
	if n < 200000 {
		t.Fatalf("only %d texts compared", n)
	}
}

// FuzzSplitFrontmatter_adrg is the differential fuzz test of the splitter
// against adrg/frontmatter, on arbitrary bytes (not only S4-decoded text).
func FuzzSplitFrontmatter_adrg(f *testing.F) {
	for _, s := range splitSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkSplit(t, text)
	})
}

var splitSeeds = []string{
	"",
	"---",
	"---\n",
	"---\n---",
	"---\n---\n",
	"---\nname: a\n---\nbody\n",
	"\n\n---\nname: a\n---\nbody",
	"  \t\n---\nname: a\n---\n",
	" --- \nname: a\n\t---\t\nbody",
	"---yaml\nname: a\n---\nbody",
	"---\nname: a\n---foo\nb: 1\n---\nbody",
	"----\nname: a\n---\n",
	"text\n---\na: 1\n---\n",
	"---\nname: a\nno closing",
	"---\r\nname: a\r\n---\r\nbody",
	"\u00a0---\u00a0\nname: a\n\u2003---\nbody",
	"\u0085---\nx\n---",
	"\xff---\nx\n---\n",
	"---\xff\nx\n---\n",
	"---\n\n\n---\n\n\nbody\n\n",
	"---\n---\n---\n---\n",
	"\n",
	"\n\n",
	"a",
}
