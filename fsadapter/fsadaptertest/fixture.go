package fsadaptertest

import (
	"fmt"
	"strings"

	"github.com/skilldex/skilldex/core"
)

// Entry is one file, directory or symlink of the [Fixture].
type Entry struct {
	Path   string        // absolute slash path within the fixture
	Type   core.FileType // TypeFile, TypeDir or TypeSymlink
	Data   string        // TypeFile: contents
	Target string        // TypeSymlink: target, relative or absolute (within the fixture)
}

// ChainLen is the length of the symlink chain /chain/n00 -> n01 -> ... ->
// n40 -> /a: one link more than Linux follows, so /chain/n00 is ELOOP (on
// Linux /chain/n01 resolves).
const ChainLen = 41

// Fixture is the tree [Check] expects: nested directories, relative and
// absolute symlinks, chains, loops, dangling links, links to files and to
// directories, names with spaces and non-ASCII letters, an empty file and an
// empty directory. Build it with [Build].
var Fixture = func() []Entry {
	es := []Entry{
		{Path: "/a", Type: core.TypeDir},
		{Path: "/a/b", Type: core.TypeDir},
		{Path: "/a/b/c.txt", Type: core.TypeFile, Data: "hello\n"},
		{Path: "/a/b/SKILL.md", Type: core.TypeFile, Data: "---\nname: x\n---\nbody\n"},
		{Path: "/a/b/parent", Type: core.TypeSymlink, Target: ".."},          // a link to an ancestor
		{Path: "/a/up", Type: core.TypeSymlink, Target: "../empty"},          // relative, with ..
		{Path: "/a/phys", Type: core.TypeSymlink, Target: "../abs-dir/../b"}, // .. is physical: /a/b/.. = /a
		{Path: "/empty", Type: core.TypeFile, Data: ""},
		{Path: "/emptydir", Type: core.TypeDir},
		{Path: "/sp ace", Type: core.TypeDir},
		{Path: "/sp ace/ünï 文.md", Type: core.TypeFile, Data: "ünï\r\ncode\x00\xff"},
		{Path: "/big", Type: core.TypeFile, Data: strings.Repeat("0123456789abcdef", 1024) + "!"},
		{Path: "/rel-file", Type: core.TypeSymlink, Target: "a/b/c.txt"},
		{Path: "/abs-file", Type: core.TypeSymlink, Target: "/a/b/c.txt"},
		{Path: "/abs-dir", Type: core.TypeSymlink, Target: "/a/b"},
		{Path: "/rel-dir", Type: core.TypeSymlink, Target: "a"},
		{Path: "/link1", Type: core.TypeSymlink, Target: "link2"}, // a short chain
		{Path: "/link2", Type: core.TypeSymlink, Target: "/link3"},
		{Path: "/link3", Type: core.TypeSymlink, Target: "abs-dir"},
		{Path: "/loop1", Type: core.TypeSymlink, Target: "loop2"},
		{Path: "/loop2", Type: core.TypeSymlink, Target: "loop1"},
		{Path: "/self", Type: core.TypeSymlink, Target: "self"},
		{Path: "/dangling", Type: core.TypeSymlink, Target: "nowhere"},
		{Path: "/dangling-abs", Type: core.TypeSymlink, Target: "/no/such/file"},
		{Path: "/through-file", Type: core.TypeSymlink, Target: "empty/x"},
		{Path: "/trailing", Type: core.TypeSymlink, Target: "empty/"},
		{Path: "/root", Type: core.TypeSymlink, Target: "/"},
		{Path: "/chain", Type: core.TypeDir},
	}
	for i := 0; i < ChainLen; i++ {
		target := fmt.Sprintf("n%02d", i+1)
		if i == ChainLen-1 {
			target = "/a"
		}
		es = append(es, Entry{Path: fmt.Sprintf("/chain/n%02d", i), Type: core.TypeSymlink, Target: target})
	}
	return es
}()

// Build creates the [Fixture] under root (an absolute slash path, "/" for
// the whole tree) with b. Absolute symlink targets are passed to b as
// written: a Builder that places the tree somewhere else maps them, as
// [OSBuilder] does.
func Build(b Builder, root string) error {
	root = strings.TrimSuffix(root, "/")
	for _, pass := range []core.FileType{core.TypeDir, core.TypeFile, core.TypeSymlink} {
		for _, e := range Fixture {
			if e.Type != pass {
				continue
			}
			p := root + e.Path
			var err error
			switch e.Type {
			case core.TypeDir:
				err = b.Mkdir(p)
			case core.TypeFile:
				err = b.WriteFile(p, []byte(e.Data))
			case core.TypeSymlink:
				t := e.Target
				if strings.HasPrefix(t, "/") {
					t = root + t
					if t == "" {
						t = "/"
					}
				}
				err = b.Symlink(t, p)
			}
			if err != nil {
				return fmt.Errorf("fsadaptertest: building %s: %w", p, err)
			}
		}
	}
	return nil
}
