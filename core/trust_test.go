package core_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wire"
)

// Regression tests of the adversarial review (SPEC S43-S45) that need more than a
// conformance case: sizes too large to commit, call counts.

// countingFS counts ReadDir calls.
type countingFS struct {
	core.FS
	readDirs atomic.Int64
}

func (c *countingFS) ReadDir(p string) ([]core.DirEntry, error) {
	c.readDirs.Add(1)
	return c.FS.ReadDir(p)
}

// TestListFiles_linksLinear: 56 directory links over 7 levels made
// ListFiles walk every path through them (299,594 paths in 55 s). Each directory is now entered once by realpath (S45): the
// listing holds each real file once and ReadDir runs once per directory.
func TestListFiles_linksLinear(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	must(t, fsys.WriteFile("/s/x/SKILL.md", []byte("---\nname: x\n---\n")))
	dir := "/s/x"
	for level := 0; level < 6; level++ { // on the old walk: 4^6 ways down, seconds instead of microseconds
		next := dir + "/d" + strconv.Itoa(level)
		must(t, fsys.WriteFile(next+"/f.md", []byte("f")))
		for i := 0; i < 4; i++ { // 4 links per level to the next level's folder
			must(t, fsys.Symlink("d"+strconv.Itoa(level), dir+"/l"+strconv.Itoa(i)))
		}
		dir = next
	}
	cfs := &countingFS{FS: fsys}
	skills := []core.Skill{{Name: "x", FilePath: "/s/x/SKILL.md", BaseDir: "/s/x"}}
	l, err := core.ListFiles(context.Background(), cfs, "x", skills)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Files) != 7 || l.Truncated {
		t.Errorf("ListFiles = %d files (truncated %v), want SKILL.md and 6 f.md: %q", len(l.Files), l.Truncated, l.Files)
	}
	if n := cfs.readDirs.Load(); n > 7 {
		t.Errorf("ListFiles read %d directories; the skill has 7", n)
	}
}

// TestListFiles_cap: past 10000 files the listing stops and says so (S45).
func TestListFiles_cap(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	if err := fsys.WriteFile("/s/x/SKILL.md", []byte("x")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < core.MaxListFiles+5; i++ {
		if err := fsys.WriteFile("/s/x/r/"+strconv.Itoa(100000+i), nil); err != nil {
			t.Fatal(err)
		}
	}
	l, err := core.ListFiles(context.Background(), fsys, "x", []core.Skill{{Name: "x", FilePath: "/s/x/SKILL.md", BaseDir: "/s/x"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Files) != core.MaxListFiles || !l.Truncated {
		t.Errorf("ListFiles = %d files, truncated %v; want %d, true", len(l.Files), l.Truncated, core.MaxListFiles)
	}
	if j := wire.AppendJSON(nil, l); !bytes.HasSuffix(j, []byte(`"],"truncated":true}`)) {
		t.Errorf("JSON ends %q", j[len(j)-40:])
	}
}

// TestResolve_bounds: a resolve target over 8 MiB and a SKILL.md to expand
// over 1 MiB are TOO_LARGE with the size and the limit (S45: the whole file used to be read, a 200 MB one ran the
// wasm instance out of memory). Exactly at the limit still reads.
func TestResolve_bounds(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	body := "---\nname: x\n---\n"
	must(t, fsys.WriteFile("/s/x/SKILL.md", []byte(body+strings.Repeat("b", core.MaxExpandBytes+1-len(body)))))
	must(t, fsys.WriteFile("/s/x/big.txt", make([]byte, core.MaxResolveBytes+1)))
	must(t, fsys.WriteFile("/s/x/limit.txt", make([]byte, core.MaxResolveBytes)))
	must(t, fsys.WriteFile("/s/y/SKILL.md", []byte(body+strings.Repeat("b", core.MaxExpandBytes-len(body)))))
	skills := []core.Skill{
		{Name: "x", FilePath: "/s/x/SKILL.md", BaseDir: "/s/x"},
		{Name: "y", FilePath: "/s/y/SKILL.md", BaseDir: "/s/y"},
	}
	var e *core.Error
	_, err := core.Resolve(context.Background(), fsys, "skill://x/big.txt", skills)
	if !errors.As(err, &e) || e.Code != core.CodeTooLarge ||
		e.Message != "File too large: /s/x/big.txt (8388609 bytes; the limit is 8 MiB)" {
		t.Errorf("Resolve(big) = %v", err)
	}
	if r, err := core.Resolve(context.Background(), fsys, "skill://x/limit.txt", skills); err != nil || r.Size != core.MaxResolveBytes {
		t.Errorf("Resolve(8 MiB) = %v", err)
	}
	_, err = core.ExpandCommand(context.Background(), fsys, "/skill:x", skills, true)
	if !errors.As(err, &e) || e.Code != core.CodeTooLarge ||
		e.Message != "File too large: /s/x/SKILL.md (1048577 bytes; the limit is 1 MiB)" {
		t.Errorf("ExpandCommand(big) = %v", err)
	}
	if _, err := core.ExpandCommand(context.Background(), fsys, "/skill:y", skills, true); err != nil {
		t.Errorf("ExpandCommand(1 MiB) = %v", err)
	}
}

// TestResolve_longURL: a 256 KB URL to a missing target took minutes (a
// realpath per ancestor); past 4096 bytes it is now
// INVALID_URL before any filesystem call (S45).
func TestResolve_longURL(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	cfs := &countingRealpathFS{FS: fsys}
	url := "skill://x/" + strings.Repeat("a/", 128<<10)
	_, err := core.Resolve(context.Background(), cfs, url, []core.Skill{{Name: "x", FilePath: "/s/x/SKILL.md", BaseDir: "/s/x"}})
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.CodeInvalidURL || e.Message != "Invalid URL: "+url[:200]+"…" {
		t.Errorf("Resolve(256 KB URL) = %.300v", err)
	}
	if n := cfs.n.Load(); n != 0 {
		t.Errorf("%d realpath calls for a refused URL", n)
	}
}

type countingRealpathFS struct {
	core.FS
	n atomic.Int64
}

func (c *countingRealpathFS) Realpath(p string) (string, error) {
	c.n.Add(1)
	return c.FS.Realpath(p)
}

// TestDiscover_linkOutsideNotRead: a SKILL.md linking outside every S43
// boundary is never opened (the check runs before the read): with a
// readFile fault on the target, nothing about it reaches the warnings
// except the link-outside one.
func TestDiscover_linkOutsideNotRead(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	must(t, fsys.WriteFile("/proc/self/environ", []byte("---\ndescription: API_KEY=secret\n---\n")))
	must(t, fsys.Symlink("/proc/self/environ", "/w/p/.claude/skills/helper/SKILL.md"))
	must(t, fsys.Mkdir("/w/p/.git"))
	must(t, fsys.WriteFile("/h/.claude/skills/mine/SKILL.md", []byte("---\ndescription: mine\n---\n")))
	rf := &readLogFS{FS: fsys}
	res, err := core.Discover(context.Background(), rf, "/w/p", "/h", core.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	j := fmt.Sprintf("%+v", res)
	if strings.Contains(j, "secret") || len(res.Skills) != 1 || res.Skills[0].Name != "mine" {
		t.Errorf("result %s", j)
	}
	for _, p := range rf.reads {
		if strings.Contains(p, "helper") || strings.HasPrefix(p, "/proc") {
			t.Errorf("read %s", p)
		}
	}
	if len(res.Shadowed) != 1 || res.Shadowed[0].Reason != core.ReasonLinkOutside || res.Shadowed[0].Name != "helper" {
		t.Errorf("shadowed %+v", res.Shadowed)
	}
	if _, err := core.ExpandCommand(context.Background(), fsys, "/skill:helper", res.Skills, true); !errors.As(err, new(*core.Error)) ||
		err.(*core.Error).Code != core.CodeUnknownSkill { // S75: not loaded, so no command
		t.Errorf("expand: %v, want UNKNOWN_SKILL", err)
	}
	// A hand-built list naming it anyway: S44 refuses at read time.
	hand := []core.Skill{{Name: "helper", FilePath: "/w/p/.claude/skills/helper/SKILL.md", BaseDir: "/w/p/.claude/skills/helper"}}
	var e *core.Error
	if _, err := core.ExpandCommand(context.Background(), fsys, "/skill:helper", hand, true); !errors.As(err, &e) || e.Code != core.CodePathEscape {
		t.Errorf("expand of a hand-built outside link = %v, want PATH_ESCAPE", err)
	}
}

// readLogFS records the paths read.
type readLogFS struct {
	core.FS
	reads []string
}

func (r *readLogFS) ReadFile(p string) ([]byte, error) {
	r.reads = append(r.reads, p)
	return r.FS.ReadFile(p)
}

// TestDiscover_replyBudget: project skills whose frontmatter adds up to
// more than 64 MiB of JSON. The reply stays under 64 MiB (S45): project
// frontmatter becomes {} with one warning naming the count, and the
// user's own skill keeps everything.
func TestDiscover_replyBudget(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes 70 MB of skills")
	}
	fsys := memfs.New()
	must(t, fsys.Mkdir("/w/p/.git"))
	must(t, fsys.WriteFile("/h/.claude/skills/mine/SKILL.md", []byte("---\ndescription: mine\nextra: kept\n---\n")))
	big := []byte("---\ndescription: d\nnotes: " + strings.Repeat("n", 63<<10) + "\n---\n")
	const n = 1100 // 1100 x 63 KiB of frontmatter: about 69 MiB
	for i := 0; i < n; i++ {
		must(t, fsys.WriteFile("/w/p/.claude/skills/s"+strconv.Itoa(i)+"/SKILL.md", big))
	}
	res, err := core.Discover(context.Background(), fsys, "/w/p", "/h", core.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	reply := wire.AppendJSON(nil, res)
	if len(reply) >= core.MaxReplyBytes {
		t.Errorf("reply %d bytes, want under 64 MiB", len(reply))
	}
	if len(res.Skills) != n+1 {
		t.Errorf("%d skills, want %d", len(res.Skills), n+1)
	}
	var warned bool
	for _, w := range res.Warnings {
		if strings.Contains(w.Message, "1100 project-level skills have their frontmatter left out") {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no budget warning: %+v", res.Warnings)
	}
	for _, s := range res.Skills {
		switch {
		case s.Name == "mine":
			if v, _ := s.Frontmatter.Get("extra"); v != "kept" {
				t.Errorf("the user skill lost its frontmatter: %v", v)
			}
		case s.Frontmatter.Len() != 0:
			t.Errorf("%s kept its frontmatter", s.Name)
		}
	}
}

// TestDiscover_pluginRegistryDeduped: 10000 registry entries naming one
// 100-skill plugin folder (directly, through a link, and unclean) cost a
// million reads and 1.27 GB ("also seen"). Each folder is now
// scanned once, by the realpath of <installPath>/skills: the reads are
// those of one scan, and the skills are the first entry's.
func TestDiscover_pluginRegistryDeduped(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	for i := 0; i < 100; i++ {
		must(t, fsys.WriteFile("/plug/skills/s"+strconv.Itoa(i)+"/SKILL.md", []byte("---\ndescription: d\n---\n")))
	}
	must(t, fsys.WriteFile("/other/skills/o/SKILL.md", []byte("---\ndescription: other plugin\n---\n")))
	must(t, fsys.Symlink("/plug", "/plug-link"))
	must(t, fsys.Mkdir("/w/p/.git"))
	var reg strings.Builder
	reg.WriteString(`{"version":2,"plugins":{`)
	for i := 0; i < 10000; i++ {
		install := [...]string{"/plug", "/plug-link", "/plug/", "/plug/skills/.."}[i%4]
		fmt.Fprintf(&reg, `"p%05d@m":[{"scope":"user","installPath":%q}],`, i, install)
	}
	reg.WriteString(`"zz@m":[{"scope":"user","installPath":"/other"}]}}`)
	must(t, fsys.WriteFile("/h/.claude/plugins/installed_plugins.json", []byte(reg.String())))
	spy := newSpy(fsys)
	res, err := core.Discover(context.Background(), spy, "/w/p", "/h", core.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if n := spy.calls["readFile"]; n > 110 { // 101 SKILL.md files, the registry in a few prefixes
		t.Errorf("%d file reads, want one per SKILL.md and a few for the registry", n)
	}
	if n := spy.calls["readDir"]; n > 20 {
		t.Errorf("%d directory listings", n)
	}
	if len(res.Skills) != 101 || res.Skills[0].Name != "p00000:s0" || res.Skills[100].Name != "zz:o" {
		t.Fatalf("%d skills, first %q, last %q", len(res.Skills), res.Skills[0].Name, res.Skills[len(res.Skills)-1].Name)
	}
	for _, s := range res.Skills[:100] {
		if !strings.HasPrefix(s.Name, "p00000:") {
			t.Fatalf("skill %q: the first entry's folder should win", s.Name)
		}
	}
	if len(res.Shadowed) != 0 || len(res.Warnings) != 0 {
		t.Errorf("shadowed %d, warnings %v", len(res.Shadowed), res.Warnings)
	}
}

// TestDiscover_linkOutsideSourceOff: in a source switched off (S23), a
// SKILL.md linking outside its skill is still checked first (S43: before
// the S24 filters): shadowed lists it as link-outside and it is never
// read, but no warning is given, as for every warning of that source.
// With the source on, the same link warns.
func TestDiscover_linkOutsideSourceOff(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	must(t, fsys.WriteFile("/etc/environ", []byte("---\nname: env\ndescription: API_KEY=secret\n---\n")))
	must(t, fsys.Symlink("/etc/environ", "/w/p/.claude/skills/leak/SKILL.md"))
	must(t, fsys.Mkdir("/w/p/.git"))
	for _, on := range []bool{false, true} {
		opts := core.DefaultOptions()
		opts.DisableClaudeProject = !on
		rf := &readLogFS{FS: fsys}
		res, err := core.Discover(context.Background(), rf, "/w/p", "/h", opts)
		must(t, err)
		if len(res.Shadowed) != 1 || res.Shadowed[0].Reason != core.ReasonLinkOutside || res.Shadowed[0].Name != "leak" {
			t.Errorf("on=%v: shadowed %+v", on, res.Shadowed)
		}
		want := 0
		if on {
			want = 1
		}
		if len(res.Warnings) != want || on && !strings.Contains(res.Warnings[0].Message, "links outside its skill (/etc/environ)") {
			t.Errorf("on=%v: warnings %+v", on, res.Warnings)
		}
		for _, p := range rf.reads {
			if strings.HasPrefix(p, "/etc") || strings.Contains(p, "/leak/") {
				t.Errorf("on=%v: read %s", on, p)
			}
		}
	}
}
