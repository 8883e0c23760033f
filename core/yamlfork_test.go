package core

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	fork "github.com/skilldex/skilldex/core/internal/yaml"
	"golang.org/x/tools/txtar"
	"gopkg.in/yaml.v3"
)

// The engine parses YAML with core/internal/yaml, yaml.v3's parser without
// its encoder, reflection and regexp (issue 6). FuzzYAMLFork checks that it
// gives yaml.v3's Unmarshal-into-a-Node exactly: the same tree (kinds,
// styles, tags, values, anchors, aliases, comments, lines, columns), the
// same error message, or a panic where yaml.v3 panics.

// dumpYAMLv3 renders a yaml.v3 tree; aliases name their target's position.
func dumpYAMLv3(root *yaml.Node) string {
	ids := map[*yaml.Node]int{}
	var number func(n *yaml.Node)
	number = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if _, ok := ids[n]; ok {
			return
		}
		ids[n] = len(ids)
		for _, c := range n.Content {
			number(c)
		}
	}
	number(root)
	var b strings.Builder
	var dump func(n *yaml.Node, depth int)
	dump = func(n *yaml.Node, depth int) {
		if n == nil {
			b.WriteString("nil\n")
			return
		}
		alias := -1
		if n.Alias != nil {
			alias = ids[n.Alias]
		}
		b.WriteString(strings.Repeat(" ", depth) + strconv.Itoa(int(n.Kind)) + " " + strconv.Itoa(int(n.Style)) + " " +
			strconv.Quote(n.Tag) + " " + strconv.Quote(n.Value) + " &" + strconv.Quote(n.Anchor) + " *" + strconv.Itoa(alias) + " " +
			strconv.Quote(n.HeadComment) + strconv.Quote(n.LineComment) + strconv.Quote(n.FootComment) + " " +
			strconv.Itoa(n.Line) + ":" + strconv.Itoa(n.Column) + "\n")
		for _, c := range n.Content {
			dump(c, depth+1)
		}
	}
	dump(root, 0)
	return b.String()
}

// dumpFork renders a fork tree the same way.
func dumpFork(root *fork.Node) string {
	ids := map[*fork.Node]int{}
	var number func(n *fork.Node)
	number = func(n *fork.Node) {
		if n == nil {
			return
		}
		if _, ok := ids[n]; ok {
			return
		}
		ids[n] = len(ids)
		for _, c := range n.Content {
			number(c)
		}
	}
	number(root)
	var b strings.Builder
	var dump func(n *fork.Node, depth int)
	dump = func(n *fork.Node, depth int) {
		if n == nil {
			b.WriteString("nil\n")
			return
		}
		alias := -1
		if n.Alias != nil {
			alias = ids[n.Alias]
		}
		b.WriteString(strings.Repeat(" ", depth) + strconv.Itoa(int(n.Kind)) + " " + strconv.Itoa(int(n.Style)) + " " +
			strconv.Quote(n.Tag) + " " + strconv.Quote(n.Value) + " &" + strconv.Quote(n.Anchor) + " *" + strconv.Itoa(alias) + " " +
			strconv.Quote(n.HeadComment) + strconv.Quote(n.LineComment) + strconv.Quote(n.FootComment) + " " +
			strconv.Itoa(n.Line) + ":" + strconv.Itoa(n.Column) + "\n")
		for _, c := range n.Content {
			dump(c, depth+1)
		}
	}
	dump(root, 0)
	return b.String()
}

// parseBoth runs both parsers; a panic is reported as such.
func parseBoth(src []byte) (want, got string) {
	func() {
		defer func() {
			if r := recover(); r != nil {
				want = "panic"
			}
		}()
		var n yaml.Node
		if err := yaml.Unmarshal(src, &n); err != nil {
			want = "error: " + err.Error()
			return
		}
		want = dumpYAMLv3(&n)
	}()
	func() {
		defer func() {
			if r := recover(); r != nil {
				got = "panic"
			}
		}()
		n, err := fork.Parse(src)
		if err != nil {
			got = "error: " + err.Error()
			return
		}
		got = dumpFork(&n)
	}()
	return want, got
}

func FuzzYAMLFork(f *testing.F) {
	for _, s := range yamlWalkSeeds {
		f.Add([]byte(s))
	}
	for _, s := range skillFileSeeds {
		text := DecodeText([]byte(s))
		if y, _, _, ok := splitFrontmatter(text); ok {
			f.Add([]byte(y))
		}
	}
	for _, s := range []string{
		"a: 1 # c\n# foot\nb: [x, {y: z}]\n", "? complex\n: key\n", "%YAML 1.2\n---\na: 1\n...\n---\nb: 2\n",
		"a: !!binary aGk=\nb: !custom x\nc: !!str 1\nd: !<tag:yaml.org,2002:int> 7\n", "a: 0b101\nb: -0o17\nc: 0x_1F\nd: 1_000\ne: +.5e3\nf: 2001-12-14t21:59:43.10-05:00\n",
		"a: &x [1, *x]\n", "a: *nope\n", "a: 'x\n", "a:\n\t- b\n", "[1, 2", "{a: [}", "- - - -\n", "a: |+\n  x\n\n", "a: >-\n  x\n   y\n",
		"\xef\xbb\xbfa: 1\n", "a: \"\\u00e9\\x41\\U0001F600\"\n", "a: b: c\n", "  a: 1\n b: 2\n", "", "\n", "#only\n", "---\n", "...\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<14 {
			return
		}
		want, got := parseBoth(src)
		if got != want {
			t.Fatalf("core/internal/yaml differs from yaml.v3 on %q:\n%s\nyaml.v3:\n%s", src, got, want)
		}
	})
}

// TestYAMLFork_corpus: every frontmatter of the conformance corpus parses
// the same.
func TestYAMLFork_corpus(t *testing.T) {
	files, _ := filepath.Glob("../testdata/conformance/*.txtar")
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	n := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if y, _, _, ok := splitFrontmatter(DecodeText(f.Data)); ok {
				n++
				if want, got := parseBoth([]byte(y)); got != want {
					t.Errorf("%s: %q: got\n%s\nyaml.v3:\n%s", file, y, got, want)
				}
			}
		}
	}
	t.Logf("%d frontmatters", n)
}
