package references

import (
	"bufio"
	"os"
	"os/exec"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	// rooted is a path from the repository root to a file.
	rooted = regexp.MustCompile(`(?:^|[^\w./-])((?:core|wire|wasm|wasmhost|fsadapter|js|docs|internal|runtime-test|testdata|examples)/[\w./-]*\.(?:go|md|js|mjs|ts|json|txtar|golden))\b`)
	// mdLink is the target of a relative markdown link.
	mdLink = regexp.MustCompile(`\]\(([^)#:\s]+)(?:#[^)]*)?\)`)
	// bare is a file name without a directory: a document or a Go test file.
	bare = regexp.MustCompile(`(?:^|[^\w./-])([A-Z][A-Z-]+\.md|\w+_test\.go)\b`)
)

// notOurs are names that are not this repository's files: the skill and
// context files of the domain.
var notOurs = map[string]bool{"SKILL.md": true, "XCSH.md": true, "AGENTS.md": true, "CLAUDE.md": true}

// fixtures are path-like strings that name files of a generated test tree,
// by the file that holds them.
var fixtures = map[string][]string{"runtime-test/fuzz_test.go": {"docs/guide.md"}}

func TestReferences(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skip("not a git checkout:", err)
	}
	files := strings.Fields(string(out))
	have, base := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		have[f] = true
		base[path.Base(f)] = true
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			have[d] = true
		}
	}
	checked := 0
	for _, f := range files {
		if !textFile(f) {
			continue
		}
		data, err := os.Open("../../" + f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(data)
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			text := sc.Text()
			for _, m := range rooted.FindAllStringSubmatch(text, -1) {
				checked++
				p := strings.TrimSuffix(m[1], ".")
				if !have[p] && !have[path.Join(path.Dir(f), p)] && !strings.ContainsAny(p, "*<") && !strings.Contains(p, "node_modules/") && !slices.Contains(fixtures[f], p) {
					t.Errorf("%s:%d: %s is not in the repository", f, line, p)
				}
			}
			if strings.HasSuffix(f, ".md") {
				for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
					checked++
					if p := path.Join(path.Dir(f), m[1]); !strings.Contains(m[1], "//") && !have[p] {
						t.Errorf("%s:%d: the link %s is not in the repository", f, line, m[1])
					}
				}
			}
			for _, m := range bare.FindAllStringSubmatch(text, -1) {
				checked++
				if !base[m[1]] && !notOurs[m[1]] {
					t.Errorf("%s:%d: no file %s in the repository", f, line, m[1])
				}
			}
		}
		data.Close()
	}
	if checked < 100 {
		t.Fatalf("only %d references checked: is the scan broken?", checked)
	}
}

// textFile reports whether f is code or documentation this repository
// writes (not a corpus case, a fixture, a vendored file or a seed).
func textFile(f string) bool {
	// docs/STYLE.md's anchors name files of other projects; this file
	// names the fixtures above.
	if f == "docs/STYLE.md" || f == "internal/references/references_test.go" || strings.HasPrefix(f, "testdata/") || strings.Contains(f, "/testdata/") || strings.HasPrefix(f, "docs/seeds/") ||
		strings.HasPrefix(f, "examples/workspace/") || strings.HasSuffix(f, "package-lock.json") {
		return false
	}
	switch path.Ext(f) {
	case ".go", ".md", ".js", ".mjs", ".ts", ".json":
		return true
	}
	return path.Base(f) == "Makefile" || strings.HasPrefix(f, ".ci/")
}
