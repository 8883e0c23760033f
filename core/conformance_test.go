package core_test

import (
	"bytes"
	"flag"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/skilldex/skilldex/internal/corpus"
	"github.com/skilldex/skilldex/wire"
)

var update = flag.Bool("update", false, "rewrite the want.json section of every conformance case")

// corpusDir is the conformance corpus shared by every runtime's driver.
const corpusDir = "../testdata/conformance"

// TestConformance replays every case of the corpus through wire.Call on the
// in-memory FS and on the OS FS, and requires both to give want.json byte
// for byte (SPEC S42).
func TestConformance(t *testing.T) {
	cases, err := corpus.LoadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no conformance cases found in " + corpusDir)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			mem := wire.Call(c.MemFS(), c.Request)
			osys, err := c.OSFS(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			onDisk := wire.Call(osys, c.Request)
			if !bytes.Equal(mem, onDisk) {
				t.Errorf("S42: the in-memory and OS filesystems disagree\nmemfs: %s\nosfs:  %s", mem, onDisk)
			}
			got := corpus.Indent(mem)
			if *update {
				if err := c.SetWant(got); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal(got, c.Want) {
				t.Errorf("%s: result differs from want.json\ngot:\n%s\nwant:\n%s", c.Path, got, c.Want)
			}
		})
	}
}

// TestConformance_rulesCovered requires every rule the engine implements to
// be cited by at least one case, so a rule cannot lose its tests unnoticed.
func TestConformance_rulesCovered(t *testing.T) {
	cases, err := corpus.LoadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	cited := map[int]int{}
	valid := regexp.MustCompile(`^S([0-9]+)$`)
	for _, c := range cases {
		if len(c.Rules) == 0 {
			t.Errorf("%s: no rules: line", c.Path)
		}
		for _, r := range c.Rules {
			m := valid.FindStringSubmatch(r)
			if m == nil {
				t.Errorf("%s: %q is not a rule id", c.Path, r)
				continue
			}
			n, _ := strconv.Atoi(m[1])
			cited[n]++
		}
	}
	var missing []string
	for n := 1; n <= lastCoveredRule; n++ {
		if cited[n] == 0 {
			missing = append(missing, fmt.Sprintf("S%d", n))
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("rules cited by no conformance case: %v", missing)
	}
}

// lastCoveredRule is the highest rule id the corpus must cover.
const lastCoveredRule = 41

// TestConformance_bodyNotInDigest: the two s59-body-not-in-digest cases
// differ only in the bodies of their SKILL.md files, and must answer the
// same bytes, digest included (S59: the digest stays as S54 defines it).
func TestConformance_bodyNotInDigest(t *testing.T) {
	var want [][]byte
	var paths, trees []string
	for _, n := range []string{"1", "2"} {
		c, err := corpus.LoadFile(corpusDir + "/s59-body-not-in-digest-" + n + ".txtar")
		if err != nil {
			t.Fatal(err)
		}
		if c.Want == nil {
			t.Fatalf("%s: no want.json", c.Path)
		}
		want = append(want, c.Want)
		var p, tree bytes.Buffer
		for _, e := range c.Entries {
			fmt.Fprintf(&p, "%s %d\n", e.Path, e.Type)
			fmt.Fprintf(&tree, "%s %q\n", e.Path, e.Data)
		}
		paths, trees = append(paths, p.String()), append(trees, tree.String())
	}
	if !bytes.Equal(want[0], want[1]) {
		t.Errorf("the replies differ:\n%s\n%s", want[0], want[1])
	}
	if paths[0] != paths[1] || trees[0] == trees[1] {
		t.Error("the two trees must hold the same paths with different contents")
	}
}
