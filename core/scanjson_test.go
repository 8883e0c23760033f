package core

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// The direct path (scanjson.go) must give, whenever it accepts a
// frontmatter, the bytes of the Map path's JSON and the same skill fields
//. Its declines are allowed (the Map path then runs), but only
// where the file says they happen: checkDirect checks those too.

// checkDirect compares the direct path with scanFrontmatter + the JSON
// writer on src and reports whether the direct path accepted it.
func checkDirect(t testing.TB, src string) bool {
	t.Helper()
	var j frontmatterJSON
	ok := j.scan(src, plainASCIIRun(src) == len(src))
	m, colon, s, refOK := scanTree(src)
	refOK = refOK && colon == 0
	if !ok {
		if refOK && !s.wide && compactMap(m).raw != "" && s.sets == mapEntries(m) && !manyKeys(m) {
			t.Fatalf("direct path declines %q, which the scanner accepts as %s", src, valueJSON(m))
		}
		return false
	}
	if !refOK {
		t.Fatalf("direct path accepts %q as %s, the scanner declines it", src, j.w.B)
	}
	if got, want := string(j.w.B), valueJSON(m); got != want {
		t.Fatalf("%q:\ndirect %s\nscanner %s", src, got, want)
	}
	raw := string(j.w.B)
	if got, want := j.fields(raw), mapFields(m); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: fields\ndirect %+v\nmap    %+v", src, got, want)
	}
	// The compact Map decodes back to the scanner's tree.
	if got, want := valueJSON((&Map{raw: raw}).full()), valueJSON(m); got != want {
		t.Fatalf("%q: decoded %s, want %s", src, got, want)
	}
	return true
}

// mapEntries counts the entries of the mappings in v, at any depth: fewer
// than the scanner read (yamlScanner.sets) when a key repeats.
func mapEntries(v Value) int {
	n := 0
	switch v := v.(type) {
	case *Map:
		n += v.Len()
		for _, k := range v.Keys() {
			e, _ := v.Get(k)
			n += mapEntries(e)
		}
	case []Value:
		for _, e := range v {
			n += mapEntries(e)
		}
	}
	return n
}

// manyKeys reports whether m or a mapping in it has more keys than the
// direct path takes.
func manyKeys(v Value) bool {
	switch v := v.(type) {
	case *Map:
		if v.Len() > maxDirectKeys {
			return true
		}
		for _, k := range v.Keys() {
			if e, _ := v.Get(k); manyKeys(e) {
				return true
			}
		}
	case []Value:
		for _, e := range v {
			if manyKeys(e) {
				return true
			}
		}
	}
	return false
}

func TestFrontmatterJSON_accepts(t *testing.T) {
	t.Parallel()
	accepted := append([]string{
		"",
		"\n# only comments\n",
		"a: 1\nb: -2.5\nc: 0x1F\nd: 012\ne: 1e3\nf: true\ng: False\nh: ~\ni: null\nj:\n",
		"a: [1, \"two\", 'three', -4, yes, 2001-12-14, ~]\nb: []\n",
		"a: \"esc \\\" \\\\ \\n \\t \\x41 \\u00e9 \\0\"\n",
		"a: 'it''s'\nb: ''\n",
		"a:\n  - x\n  - \"y\"\n  -\nb:\n- 1\n- z\n",
		"a:\n  k: v\n  n: 1\n  l: [x]\n  e:\n",
		"a: |\n  line 1\n\n  line 3\nb: >-\n  x\n  y\n",
		"name: \" padded \"\ndescription: \"\"\nenabled: false\n",
		"name: [x]\ndescription: 0\nalwaysApply: yes\nalways-apply: true\n",
		"always-apply: true\nglobs: [\"a\\\"b\", 'c\\d', 3]\ncontexts: [\"\\u00e9\", x]\n",
		"description: null\nglobs: []\ncontexts:\n  - a\n  - b\n",
		"a: 名前 😀\n",
		"disable-model-invocation: true\nuser-invocable: false\n",
		"disable-model-invocation: 'true'\nuser-invocable: \"false\"\n",
	}, realisticFrontmatters...)
	for _, src := range accepted {
		if !checkDirect(t, src) {
			t.Errorf("direct path declines %q", src)
		}
	}
}

func TestFrontmatterJSON_declines(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"dup: 1\nother: 2\ndup: 3\n",             // S6: first position, last value
		"a:\n  k: 1\n  k: 2\n",                   // the same inside a mapping
		"a: .nan\n", "a: [-.inf]\n", "a: -0.0\n", // JSON cannot carry them back
		"a: {b: c}\n",      // outside the subset
		"a: &x 1\nb: *x\n", // likewise
		strings.Repeat("k", 1) + ": 1\n" + keysDoc(maxDirectKeys+1),
	} {
		if checkDirect(t, src) {
			t.Errorf("direct path accepts %q", src)
		}
	}
}

// keysDoc is a mapping of n distinct keys.
func keysDoc(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("key" + strings.Repeat("x", i) + ": v\n")
	}
	return b.String()
}

// TestFrontmatterJSON_generated compares the paths on documents generated
// around the edges of the subset (the scanner's generator).
func TestFrontmatterJSON_generated(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	accepted := 0
	for i := 0; i < n; i++ {
		if checkDirect(t, genFrontmatter(randChooser{r})) {
			accepted++
		}
	}
	if accepted < n/20 {
		t.Errorf("the direct path accepted only %d of %d generated documents", accepted, n)
	}
	t.Logf("accepted %d of %d", accepted, n)
}

// FuzzFrontmatterJSON is the differential fuzz test of the direct path
// against the scanner and the JSON writer, on arbitrary text and on the
// generator's documents.
func FuzzFrontmatterJSON(f *testing.F) {
	for _, s := range realisticFrontmatters {
		f.Add(s, []byte{})
	}
	f.Add("", []byte("realistic frontmatter seed bytes 0123456789"))
	f.Add("description: \x01\x01\nname: x\n", []byte{})
	f.Add("a: [x, \x7f]\n", []byte{})
	f.Fuzz(func(t *testing.T, src string, gen []byte) {
		checkDirect(t, src)
		if len(gen) > 0 {
			checkDirect(t, genFrontmatter(&byteChooser{data: gen}))
		}
	})
}

// BenchmarkFrontmatterJSON is the direct path on realistic frontmatters
// (the common case of discovery).
func BenchmarkFrontmatterJSON(b *testing.B) {
	var j frontmatterJSON
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		src := realisticFrontmatters[i%len(realisticFrontmatters)]
		if !j.scan(src, true) {
			b.Fatal("declined")
		}
	}
}
