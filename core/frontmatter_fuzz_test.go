package core

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	fork "github.com/skilldex/skilldex/core/internal/yaml"
	"gopkg.in/yaml.v3"
)

// skillFileSeeds are realistic SKILL.md files and the awkward cases of the
// unit tests, for the fuzzers.
var skillFileSeeds = []string{
	"---\nname: pdf\ndescription: Extract text and tables from PDF files. Use when the user mentions PDFs, forms or document extraction.\nlicense: Apache-2.0\nallowed-tools: [Read, Bash]\nmetadata:\n  version: \"1.2\"\n  author: team\n---\n\n# PDF\n\nUse `pdftotext`.\n",
	"---\nname: review\ndescription: |\n  Review code for bugs.\n  Use when asked to review.\nglobs:\n  - \"*.go\"\n  - \"**/*.ts\"\nalwaysApply: false\n---\nBody\n",
	"---\r\nname: win\r\ndescription: CRLF file\r\nenabled: true\r\n---\r\nbody\r\n",
	"\xEF\xBB\xBF---\nname: bom\n---\n",
	"---\nname: x\ndescription: Use when: X\n---\n",
	"---\nname: x\ndescription: [WIP] does things\n---\n",
	"---\n- a\n- b\n---\n",
	"---\na: &a [*a]\n---\n",
	"---\nbase: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n---\n",
	"---\nv: [012, 0x10, 0o17, .inf, .nan, ~, yes, 2001-12-14, !!binary aGk=, !!int abc]\n---\n",
	"---\na: {a: {a: {a: [[[[1]]]]}}}\n---\n",
	"---\nname: \"abc\n---\n",
	"no frontmatter at all\n",
	"",
	"---\n---\n",
	"---\n\tb: 1\n---\n",
	"---\n? [a]\n: b\n---\n",
	"---\nname: x\xff\xfe\n---\nbody\xc0",
}

// FuzzParseSkillFile: never panics, bounded time, and the result is
// consistent (issue 7).
func FuzzParseSkillFile(f *testing.F) {
	for _, s := range skillFileSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		sf := ParseSkillFile("dir/SKILL.md", data)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("took %v", d)
		}
		checkSkillFile(t, data, sf)
		// The frontmatter plus the complete lines after it parse the same
		// (discovery reads only a prefix of each SKILL.md).
		if sf.Line > 0 {
			text := DecodeText(data)
			_, _, rest, _ := splitFrontmatter(text)
			cut := text[:len(text)-len(rest)]
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				cut = text[:len(text)-len(rest)+i+1]
			}
			p := ParseSkillFile("dir/SKILL.md", []byte(cut))
			if valueJSON(p.Frontmatter) != valueJSON(sf.Frontmatter) || p.Line != sf.Line || p.Reject != sf.Reject ||
				strings.Join(p.Warnings, "\n") != strings.Join(sf.Warnings, "\n") {
				t.Fatalf("prefix %q differs from the whole file", cut)
			}
		}
	})
}

func checkSkillFile(t *testing.T, data []byte, sf SkillFile) {
	t.Helper()
	if sf.Frontmatter == nil {
		t.Fatal("nil frontmatter")
	}
	js := valueJSON(sf.Frontmatter)
	if !json.Valid([]byte(js)) {
		t.Fatalf("invalid JSON %s", js)
	}
	if d := valueDepth(sf.Frontmatter); d > MaxFrontmatterDepth {
		t.Fatalf("depth %d", d)
	}
	if sf.Reject != "" && (js != "{}" || len(sf.Warnings) != 0) {
		t.Fatalf("rejected with frontmatter %s and warnings %q", js, sf.Warnings)
	}
	for _, w := range append(sf.Warnings, sf.Reject) {
		if w != "" && !strings.HasPrefix(w, "dir/SKILL.md:") {
			t.Fatalf("message does not name the file: %q", w)
		}
	}
	if sf.Line == 0 && js != "{}" {
		t.Fatalf("no frontmatter line but frontmatter %s", js)
	}
	if sf.Empty != (DecodeText(data) == "") {
		t.Fatalf("Empty = %v", sf.Empty)
	}
	if sf.Body != strings.TrimSpace(sf.Body) {
		t.Fatalf("body not trimmed: %q", sf.Body)
	}
}

func valueDepth(v Value) int {
	switch v := v.(type) {
	case []Value:
		d := 0
		for _, e := range v {
			d = max(d, valueDepth(e))
		}
		return d + 1
	case *Map:
		d := 0
		for _, k := range v.Keys() {
			e, _ := v.Get(k)
			d = max(d, valueDepth(e))
		}
		return d + 1
	}
	return 0
}

// FuzzYAMLWalk_yamlv3 is the differential fuzz test of the node walk
// (yaml.go) against yaml.v3's own decoder into interface{}: both must give
// the same mapping, or both fail, except where SPEC S6 differs on purpose
// (duplicate keys, keys that are not strings, leading-zero integers,
// timestamps, !!binary, the depth limit, the alias bound).
func FuzzYAMLWalk_yamlv3(f *testing.F) {
	for _, s := range yamlWalkSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkWalkAgainstYAMLv3(t, src)
	})
}

func TestYAMLWalk_yamlv3(t *testing.T) {
	t.Parallel()
	for _, s := range yamlWalkSeeds {
		checkWalkAgainstYAMLv3(t, s)
	}
}

var yamlWalkSeeds = []string{
	"a: 1\nb: [x, 2.5, true, ~]\nc: {d: e}\n",
	"v: [0x10, 0o17, 1_000, 0b101, 1e400, .inf, -.Inf, .nan, ~, null, '', yes, on, True, +12, -0x1f, 12345678901234567890]\n",
	"v: [!!str 12, !!float 3, !!int \"12\", !!bool true, !!null ~, !custom x, ! 12, !!int abc, !!float 18446744073709551615, !!null x]\n",
	"a: &x {k: 1, j: [2]}\nb: *x\nc: &s str\nd: *s\n",
	"b: &b {x: 1, y: 2}\no: &o {y: 20, z: 30}\nm:\n  <<: [*b, *o]\n  x: 0\nn:\n  <<: *b\n  <<: *o\n",
	"a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: *b, z: 3}\n",
	"<<: {a: 1, b: 2}\nb: 3\n",
	"a: &a [*a]\n",
	"a: &a {<<: *a}\n",
	"a: 1\n<<: 3\n",
	"m:\n  <<: [[a]]\n",
	"&k kk: e\n*k : f\n",
	"\"<<\": {a: 1}\n",
	"a: |\n  text\nb: >-\n  x\n  y\nc: \"esc\\t\\u00e9\"\n",
	"m: {<<: [{a: 1, a: 2}], b: 1}\n",
	"x: !!map {a: 1}\ny: !!seq [1]\nz: !!str\n",
}

// checkWalkAgainstYAMLv3 runs both decoders on src.
func checkWalkAgainstYAMLv3(t *testing.T, src string) {
	t.Helper()
	if len(src) > MaxFrontmatterBytes {
		return
	}
	if b, _ := yamlDepthBound(src); b > yamlDepthGuard {
		return
	}
	doc, err := parseYAML(src)
	if err != nil || doc.Kind != fork.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != fork.MappingNode {
		return
	}
	// yaml.v3's own tree says which documents compare (core/internal/yaml
	// gives the same tree: yamlfork_test.go).
	var ydoc yaml.Node
	if yaml.Unmarshal([]byte(src), &ydoc) != nil || len(ydoc.Content) == 0 || !comparableTree(ydoc.Content[0], 0) {
		return
	}
	var w walker
	m := w.mapping(doc.Content[0], 1)

	var ref any
	refErr := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return yaml.Unmarshal([]byte(src), &ref)
	}()
	switch {
	case w.deep || w.err != "" && w.decoded > yamlMaxDecoded:
		return // our limits, not yaml.v3's
	case refErr != nil && strings.Contains(refErr.Error(), "already defined"):
		return // duplicate keys: SPEC S6 keeps the last value
	case refErr != nil && strings.HasPrefix(refErr.Error(), "yaml: invalid map key:") && strings.HasPrefix(w.err, "invalid map key"):
		return
	case refErr != nil && w.err == "":
		t.Fatalf("%q: yaml.v3 fails (%v), the walk gives %s", src, refErr, valueJSON(m))
	case refErr == nil && w.err != "":
		t.Fatalf("%q: the walk fails (%s), yaml.v3 gives %#v", src, w.err, ref)
	case refErr != nil:
		if want := strings.TrimPrefix(refErr.Error(), "yaml: "); want != w.err {
			t.Fatalf("%q: the walk fails with %q, yaml.v3 with %q", src, w.err, want)
		}
		return
	}
	got, err1 := json.Marshal(normalizeValue(m))
	want, err2 := json.Marshal(normalizeYAMLv3(ref))
	if err1 != nil || err2 != nil {
		t.Fatalf("%q: %v %v", src, err1, err2)
	}
	if string(got) != string(want) {
		t.Fatalf("%q:\nwalk    %s\nyaml.v3 %s", src, got, want)
	}
}

// comparableTree reports whether n avoids the places where SPEC S6 departs
// from yaml.v3 on purpose: keys that are not strings, integers with leading
// zeros, timestamps and !!binary.
func comparableTree(n *yaml.Node, depth int) bool {
	if depth > 200 {
		return false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		tag := n.ShortTag()
		if tag == tagTimestamp || tag == tagBinary {
			return false
		}
		if tag == tagInt || tag == tagFloat || n.Style&yaml.TaggedStyle != 0 {
			if isLeadingZeroInt(strings.ReplaceAll(n.Value, "_", "")) {
				return false
			}
			if n.Style&yaml.TaggedStyle != 0 && isYAMLTimestamp(n.Value) {
				return false
			}
		}
	case yaml.MappingNode:
		for i := 0; i < len(n.Content); i += 2 {
			k := n.Content[i]
			for k.Kind == yaml.AliasNode && k.Alias != nil {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode || k.ShortTag() != tagStr && !isMergeKeyV3(k) {
				return false
			}
		}
	}
	for _, c := range n.Content {
		if !comparableTree(c, depth+1) {
			return false
		}
	}
	return true
}

// isMergeKeyV3 is isMergeKey on a yaml.v3 node.
func isMergeKeyV3(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Value == "<<" && (n.Tag == "" || n.Tag == "!" || n.Tag == "!!merge" || n.Tag == "tag:yaml.org,2002:merge")
}

// normalizeValue and normalizeYAMLv3 turn both decoders' results into
// encoding/json input with sorted keys, numbers as float64 and non-finite
// numbers as null (what the JSON writer prints).
func normalizeValue(v Value) any {
	switch v := v.(type) {
	case *Map:
		out := make(map[string]any, v.Len())
		for _, k := range v.Keys() {
			e, _ := v.Get(k)
			out[k] = normalizeValue(e)
		}
		return out
	case []Value:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalizeValue(e)
		}
		return out
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
	}
	return v
}

func normalizeYAMLv3(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = normalizeYAMLv3(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[fmt.Sprint(k)] = normalizeYAMLv3(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalizeYAMLv3(e)
		}
		return out
	case int:
		return float64(v)
	case int64:
		return float64(v)
	case uint64:
		return float64(v)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
	}
	return v
}
