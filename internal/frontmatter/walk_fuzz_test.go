package frontmatter

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/fmrules"
	"go.yaml.in/yaml/v3"
)

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
	if len(src) > fmrules.MaxBytes {
		return
	}
	if b, _ := fmrules.DepthBound(src); b > fmrules.DepthGuard {
		return
	}
	doc, err := parseYAML(src)
	if err != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return
	}
	if !comparableTree(doc.Content[0], 0) {
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
		t.Fatalf("%q: yaml.v3 fails (%v), the walk gives %v", src, refErr, normalizeValue(m))
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
		if tag == fmrules.TagTimestamp || tag == fmrules.TagBinary {
			return false
		}
		if tag == fmrules.TagInt || tag == fmrules.TagFloat || n.Style&yaml.TaggedStyle != 0 {
			if fmrules.IsLeadingZeroInt(strings.ReplaceAll(n.Value, "_", "")) {
				return false
			}
			if n.Style&yaml.TaggedStyle != 0 && fmrules.IsTimestamp(n.Value) {
				return false
			}
		}
	case yaml.MappingNode:
		for i := 0; i < len(n.Content); i += 2 {
			k := n.Content[i]
			for k.Kind == yaml.AliasNode && k.Alias != nil {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode || k.ShortTag() != fmrules.TagStr && !isMergeKeyV3(k) {
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
func normalizeValue(v any) any {
	switch v := v.(type) {
	case *omap:
		out := make(map[string]any, len(v.keys))
		for i, k := range v.keys {
			out[k] = normalizeValue(v.vals[i])
		}
		return out
	case []any:
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
