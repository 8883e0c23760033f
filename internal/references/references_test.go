package references

import (
	"bufio"
	"os"
	"os/exec"
	"path"
	"path/filepath"
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

// decimal is a measured figure: a number with a fraction.
var decimal = regexp.MustCompile(`\d+\.\d+`)

// TestReadmeFigures: every figure of the README's Performance table (its
// "measured" column) is in the output of the last `make bench`, which the
// Makefile writes to docs/bench/ (make bench, bench-peers, profile-js and
// profile-go each write their own file there).
func TestReadmeFigures(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var bench []byte
	files, err := filepath.Glob("../../docs/bench/*.md") // go.md, js.md, js-deno.md, peers.md, profile-*.md
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/bench/*.md: run make bench (%v)", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		bench = append(bench, b...)
	}
	figures := map[string]bool{}
	for _, n := range decimal.FindAllString(string(bench), -1) {
		figures[n] = true
	}
	section := string(readme)
	start := strings.Index(section, "\n## Performance")
	if start < 0 {
		t.Fatal("README.md has no Performance section")
	}
	section = section[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	rows := 0
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(line, "|---") || strings.TrimSpace(cells[2]) == "measured" {
			continue
		}
		rows++
		for _, n := range decimal.FindAllString(cells[2], -1) {
			if !figures[n] {
				t.Errorf("README.md Performance: %s (in %q) is not in docs/bench/: run make bench and copy its figures", n, strings.TrimSpace(cells[1]))
			}
		}
	}
	if rows == 0 {
		t.Fatal("README.md's Performance section has no table")
	}
}
