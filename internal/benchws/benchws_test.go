package benchws

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/skillfiles.sum")

// lockstepIndexes are the files testdata/skillfiles.sum names: the first
// 300 and some of a 10,000-skill workspace's last.
func lockstepIndexes() []int {
	var is []int
	for i := range 300 {
		is = append(is, i)
	}
	for i := 9950; i < 10000; i++ {
		is = append(is, i)
	}
	return is
}

// TestSkillFileLockstep checks SkillFile against testdata/skillfiles.sum,
// which js/test/bench-workspace.test.js checks workspace.mjs's skillFile
// against: the Go and JS benchmarks measure the same files.
func TestSkillFileLockstep(t *testing.T) {
	var b strings.Builder
	for _, i := range lockstepIndexes() {
		fmt.Fprintf(&b, "%d %x\n", i, sha256.Sum256(SkillFile(i, fmt.Sprintf("skill-%d", i))))
	}
	const golden = "testdata/skillfiles.sum"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for k := range min(len(gl), len(wl)) {
			if gl[k] != wl[k] {
				t.Fatalf("SkillFile differs from %s (go test ./internal/benchws -update rewrites it, and js/bench/workspace.mjs must follow): got %q, want %q", golden, gl[k], wl[k])
			}
		}
		t.Fatalf("SkillFile differs from %s in length", golden)
	}
}

// shapesOf names the shapes of a SKILL.md, found by line patterns as the
// census of docs/bench/WORKSPACE.md found them.
func shapesOf(data []byte) []string {
	text := string(data)
	var out []string
	if strings.Contains(text, "\r\n") {
		out = append(out, "crlf")
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	if !strings.HasPrefix(text, "---\n") {
		return append(out, "no frontmatter")
	}
	fm := text[4 : strings.Index(text, "\n---\n")+1]
	lines := strings.Split(fm, "\n")
	has := map[string]bool{}
	for k, l := range lines {
		switch {
		case strings.HasPrefix(l, "description: Use when: "):
			has["invalid YAML (unquoted colon)"] = true
		case strings.HasPrefix(l, "description:") && strings.TrimSpace(l) == "description:":
			has["plain scalar continued on indented lines"] = true
		}
		switch {
		case strings.Contains(l, `: "`):
			has["double-quoted scalar"] = true
		case strings.Contains(l, `: '`):
			has["single-quoted scalar"] = true
		case strings.HasSuffix(l, ": >") || strings.HasSuffix(l, ": >-"):
			has["folded block scalar"] = true
		case strings.HasSuffix(l, ": |"):
			has["literal block scalar"] = true
		case strings.Contains(l, ": ["):
			has["flow sequence"] = true
		case strings.HasPrefix(l, "    - name: "):
			has["sequence of mappings"] = true
		case strings.HasPrefix(l, "    - "):
			has["block sequence inside a nested mapping"] = true
		case strings.HasPrefix(l, "  - "):
			has["block sequence at top level"] = true
		}
		if l != "" && l[0] != ' ' && strings.HasSuffix(l, ":") && k+1 < len(lines) &&
			strings.HasPrefix(lines[k+1], "  ") && strings.Contains(lines[k+1], ":") && !strings.HasPrefix(lines[k+1], "  - ") {
			has["nested mapping"] = true
		}
	}
	for s := range has {
		out = append(out, s)
	}
	return out
}

// TestShapeRates checks the 1,000-skill workspace against the rates of
// shapes.json: each shape within 2 files and 10% of its share. With -v it
// prints the counts (docs/bench/WORKSPACE.md quotes them).
func TestShapeRates(t *testing.T) {
	entries, _ := Tree()
	count := map[string]int{}
	files := 0
	for _, e := range entries {
		if e.Data != nil && strings.HasSuffix(e.Path, "/SKILL.md") {
			files++
			for _, s := range shapesOf(e.Data) {
				count[s]++
			}
		}
	}
	if files != Count {
		t.Fatalf("%d SKILL.md files, want %d", files, Count)
	}
	// The shares the census gives (of 1,917 files; invalid YAML added).
	all := 1946.0
	want := map[string]float64{
		"no frontmatter":                           302 / all,
		"invalid YAML (unquoted colon)":            29 / all,
		"double-quoted scalar":                     1183 / 1917.0,
		"nested mapping":                           1123 / 1917.0,
		"flow sequence":                            782 / 1917.0,
		"block sequence inside a nested mapping":   55 / 1917.0,
		"folded block scalar":                      44 / 1917.0,
		"block sequence at top level":              26 / 1917.0,
		"single-quoted scalar":                     10 / 1917.0,
		"literal block scalar":                     2 / 1917.0,
		"plain scalar continued on indented lines": 2 / 1917.0,
		"sequence of mappings":                     1 / 1917.0,
		"crlf":                                     1 / 1917.0,
	}
	for s, share := range want {
		exp := share * Count
		if d := math.Abs(float64(count[s]) - exp); d > 2+0.1*exp {
			t.Errorf("%s: %d files of %d, want about %.1f", s, count[s], Count, exp)
		}
		t.Logf("%-42s %4d (census share × %d: %.1f)", s, count[s], Count, exp)
	}
	// Description and body sizes.
	var desc, body []int
	for _, e := range entries {
		if e.Data == nil || !strings.HasSuffix(e.Path, "/SKILL.md") {
			continue
		}
		text := string(bytes.ReplaceAll(e.Data, []byte("\r\n"), []byte("\n")))
		rest := text
		if strings.HasPrefix(text, "---\n") {
			end := strings.Index(text, "\n---\n")
			rest = text[end+5:]
		}
		body = append(body, len(strings.TrimLeft(rest, "\n")))
		if i := strings.Index(text, "\ndescription:"); i >= 0 {
			d := text[i+len("\ndescription:"):]
			d = d[:strings.Index(d, "\n---\n")]
			// The description's lines: its first and the indented ones after.
			n, lines := 0, strings.Split(d, "\n")
			for k, l := range lines {
				if k > 0 && !strings.HasPrefix(l, "  ") {
					break
				}
				n += len(strings.TrimSpace(l))
			}
			desc = append(desc, n)
		}
	}
	t.Logf("description bytes: %s; body bytes: %s", quantiles(desc), quantiles(body))
}

func quantiles(v []int) string {
	s := append([]int(nil), v...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	q := func(p float64) int { return s[int(p*float64(len(s)-1))] }
	return fmt.Sprintf("p10 %d, median %d, p90 %d, max %d", q(0.1), q(0.5), q(0.9), s[len(s)-1])
}
