package iofs_test

import (
	"context"
	"embed"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/fsadaptertest"
	"github.com/skilldex/skilldex/fsadapter/iofs"
)

// mapBuilder builds a tree into an fstest.MapFS (an fsadaptertest.Builder):
// the engine's "/a/b" is the name "a/b"; link targets are stored as given.
type mapBuilder fstest.MapFS

func name(p string) string { return strings.TrimPrefix(p, "/") }

func (b mapBuilder) Mkdir(p string) error {
	b[name(p)] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	return nil
}

func (b mapBuilder) WriteFile(p string, data []byte) error {
	b[name(p)] = &fstest.MapFile{Data: append([]byte(nil), data...), Mode: 0o644}
	return nil
}

func (b mapBuilder) Symlink(target, p string) error {
	b[name(p)] = &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink | 0o777}
	return nil
}

// TestIOFS_conformance: over an fstest.MapFS, which can tell links
// (fs.ReadLinkFS), the adapter passes every fsadaptertest check (S2), with
// the fixture at the root and in a subdirectory.
func TestIOFS_conformance(t *testing.T) {
	t.Parallel()
	for _, root := range []string{"/", "/some/where"} {
		t.Run(root, func(t *testing.T) {
			t.Parallel()
			m := fstest.MapFS{}
			if err := fsadaptertest.Build(mapBuilder(m), root); err != nil {
				t.Fatal(err)
			}
			if err := fsadaptertest.Check(iofs.New(m), root); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// rawOSBuilder writes the tree under a host directory as OSBuilder does,
// but stores absolute link targets as written: inside an os.DirFS they
// name places in the io/fs.FS, as iofs reads them.
type rawOSBuilder struct {
	fsaBuilder fsadaptertest.Builder
	dir        string
}

func (b rawOSBuilder) Mkdir(p string) error                  { return b.fsaBuilder.Mkdir(p) }
func (b rawOSBuilder) WriteFile(p string, data []byte) error { return b.fsaBuilder.WriteFile(p, data) }
func (b rawOSBuilder) Symlink(target, p string) error {
	h := filepath.Join(b.dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(h), 0o755); err != nil {
		return err
	}
	return os.Symlink(target, h)
}

// TestIOFS_dirFS: over os.DirFS the adapter passes the same checks, links
// read by the adapter through fs.ReadLinkFS.
func TestIOFS_dirFS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := fsadaptertest.Build(rawOSBuilder{fsadaptertest.OSBuilder(dir), dir}, "/"); err != nil {
		t.Fatal(err)
	}
	if err := fsadaptertest.Check(iofs.New(os.DirFS(dir)), "/"); err != nil {
		t.Fatal(err)
	}
}

// noLinks hides a MapFS's fs.ReadLinkFS methods, as an embed.FS or a zip
// archive has none.
type noLinks struct{ fs fstest.MapFS }

func (n noLinks) Open(name string) (fs.File, error) { return n.fs.Open(name) }

// TestIOFS_withoutLinks: an io/fs.FS that cannot tell links shows none:
// Lstat is Stat, Realpath the clean path, and reads go through the FS's own
// resolution.
func TestIOFS_withoutLinks(t *testing.T) {
	t.Parallel()
	m := fstest.MapFS{
		"d/f.txt":   {Data: []byte("text")},
		"d/link":    {Data: []byte("f.txt"), Mode: fs.ModeSymlink},
		"d/sub/g":   {Data: []byte("g")},
		"plainfile": {Data: []byte("p")},
	}
	with, without := iofs.New(m), iofs.New(noLinks{m})
	for _, tc := range []struct {
		path                       string
		withLstat, withoutLstat    core.FileType
		withReal, withoutReal, err string
	}{
		{path: "/d/f.txt", withLstat: core.TypeFile, withoutLstat: core.TypeFile, withReal: "/d/f.txt", withoutReal: "/d/f.txt"},
		{path: "/d/link", withLstat: core.TypeSymlink, withoutLstat: core.TypeFile, withReal: "/d/f.txt", withoutReal: "/d/link"},
		{path: "/d/sub/../f.txt", withLstat: core.TypeFile, withoutLstat: core.TypeFile, withReal: "/d/f.txt", withoutReal: "/d/f.txt"},
		{path: "/d", withLstat: core.TypeDir, withoutLstat: core.TypeDir, withReal: "/d", withoutReal: "/d"},
		{path: "/", withLstat: core.TypeDir, withoutLstat: core.TypeDir, withReal: "/", withoutReal: "/"},
		{path: "/plainfile/x", err: core.ENOTDIR},
		{path: "/missing", err: core.ENOENT},
		{path: "relative", err: core.EINVAL},
	} {
		for _, side := range []struct {
			fsys      *iofs.FS
			lstat     core.FileType
			real, tag string
		}{{with, tc.withLstat, tc.withReal, "MapFS"}, {without, tc.withoutLstat, tc.withoutReal, "no ReadLinkFS"}} {
			typ, err := side.fsys.Lstat(tc.path)
			real, rerr := side.fsys.Realpath(tc.path)
			if tc.err != "" {
				if core.POSIXCode(err) != tc.err || core.POSIXCode(rerr) != tc.err {
					t.Errorf("%s %s: Lstat, Realpath errors %v, %v; want %s", side.tag, tc.path, err, rerr, tc.err)
				}
				continue
			}
			if err != nil || rerr != nil || typ != side.lstat || real != side.real {
				t.Errorf("%s %s: Lstat %v %v, Realpath %q %v; want %v, %q", side.tag, tc.path, typ, err, real, rerr, side.lstat, side.real)
			}
		}
	}
	if got, err := without.ReadFile("/d/link"); err != nil || string(got) != "text" {
		t.Errorf("no ReadLinkFS: ReadFile(/d/link) = %q, %v; want the FS's own resolution, %q", got, err, "text")
	}
}

//go:embed all:testdata/workspace
var workspace embed.FS

// TestIOFS_embed: a discovery over an embed.FS finds the skills compiled
// into the program, and reads them through the adapter.
func TestIOFS_embed(t *testing.T) {
	t.Parallel()
	fsys := iofs.New(workspace)
	res, err := core.Discover(context.Background(), fsys, "/testdata/workspace/project", "/testdata/workspace/home", core.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range res.Skills {
		names = append(names, s.Name+"="+s.FilePath)
	}
	want := []string{
		"hello=/testdata/workspace/home/.xcsh/agent/skills/hello/SKILL.md",
		"review=/testdata/workspace/project/.claude/skills/review/SKILL.md",
	}
	if strings.Join(names, " ") != strings.Join(want, " ") || len(res.Warnings) != 0 {
		t.Errorf("Discover = %v, warnings %v; want %v", names, res.Warnings, want)
	}
	r, err := core.Resolve(context.Background(), fsys, "skill://review", res.Skills)
	if err != nil || !strings.Contains(r.Content, "Read the diff.") {
		t.Errorf("Resolve(skill://review) = %+v, %v", r, err)
	}
}
