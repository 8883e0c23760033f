package core_test

import (
	"context"
	"errors"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
)

// Fuzzing what a skill's links can make the engine read after discovery
// (SPEC S31, S33, S43, S44): FuzzListFiles and FuzzExpand build a
// tree whose link slots the input fills, discover it, then rebuild the tree
// from a second set of slot states (a link swapped in after discovery, as a
// racer would) and call listFiles, resolve and expandCommand on every
// skill found.
//
// Every file holds its own path ("@@FILE <path> @@"), and every file lives
// only at that path with real ancestors, so the path in a reply is the
// realpath of the file that was read. The oracle, written from the SPEC and
// not from the code under test:
//
//   - the skill's SKILL.md (resolve of "" or "SKILL.md", expandCommand, the
//     "SKILL.md" of listFiles) may be a file whose realpath lies inside the
//     realpath of the skill folder, of its skills root, or of its source's
//     scope (S43: the repository for a project skill, home for a user one,
//     the installPath for a plugin's);
//   - every other file read or listed lies inside the realpath of the
//     skill folder (S31, S33), is listed once, and can be read (S44);
//   - every failure is a SPEC error code.

const (
	ltHome = "/home/u"
	ltRepo = "/home/u/proj"
	ltPlug = "/home/u/plug" // a plugin's installPath
)

// linkSlot is one place in the tree the input controls: its base state
// (files under it, "" for none: absent) or, in the input, absent or a link
// to one of linkTargets. No slot lies under another, so every file of a
// slot in its base state has real ancestors.
type linkSlot struct {
	path  string
	files []string // relative to path; "." is path itself as a file
}

var linkSlots = []linkSlot{
	{ltRepo + "/.claude/skills/x/SKILL.md", []string{"."}},
	{ltRepo + "/.claude/skills/x/ref.md", []string{"."}},
	{ltRepo + "/.claude/skills/x/sub", []string{"inner.md", "SKILL.md"}},
	{ltRepo + "/.claude/skills/y", []string{"SKILL.md", "f.md"}},
	{ltRepo + "/.claude/skills/x/up", nil},
	{ltRepo + "/.agents/skills/g/SKILL.md", []string{"."}},
	{ltRepo + "/skills/x/SKILL.md", []string{"."}},
	{ltRepo + "/skills/x/notes.md", []string{"."}},
	{ltHome + "/.claude/skills/z/SKILL.md", []string{"."}},
	{ltHome + "/.claude/skills/z/d", nil},
	{ltRepo + "/docs", []string{"shared.md"}},
	{"/outside/secret.md", []string{"."}},
	{"/outside/dir", []string{"SKILL.md", "f.md"}},
	{ltHome + "/notes.md", []string{"."}},
	{ltRepo + "/.claude/skills/w", nil},
	{ltPlug + "/skills/p/SKILL.md", []string{"."}},
	{ltPlug + "/skills/p/lib", nil},
}

// linkTargets are the link targets a slot may take: in the skill, in the
// repository, in home, in the plugin, outside everything, loops, dangling.
var linkTargets = []string{
	"/outside/secret.md", "/outside/dir", "/outside", "/", ltHome, ltRepo,
	ltRepo + "/docs/shared.md", ltRepo + "/docs", ltRepo + "/skills/x/SKILL.md", ltRepo + "/skills/x",
	ltRepo + "/.claude/skills/x", ltRepo + "/.claude/skills/x/ref.md", ltHome + "/notes.md",
	ltHome + "/.claude/skills/z/SKILL.md", "/outside/dir/SKILL.md", "/proc/self/environ", ltPlug,
	"../../../skills/x/SKILL.md", "../../../skills/x", "..", "../..", "../../..", ".", "ref.md", "sub",
	"sub/SKILL.md", "SKILL.md", "../x", "../x/SKILL.md", "../y/SKILL.md", "loop", "missing",
	"../../../docs/shared.md", "../../../../notes.md", "../../../../../../outside/secret.md", "../../../..",
	"inner.md", "../../../../../outside/dir", "../../../../plug/skills/p/SKILL.md", "../y", "../../../docs",
}

// Slot states in the input: 0 base, 1 absent, 2+i a link to linkTargets[i].
const (
	slotBase   = 0
	slotAbsent = 1
)

// fileText is the content of the file at p: a skill file any provider
// loads, naming its own path.
func fileText(p string) string {
	return "---\ndescription: file " + path.Base(path.Dir(p)) + "\n---\n@@FILE " + p + " @@\n"
}

var fileMarker = regexp.MustCompile(`@@FILE (\S+) @@`)

// buildLinkTree builds the tree for the slot states (missing states are
// base).
func buildLinkTree(t testing.TB, states []byte) *memfs.FS {
	fsys := memfs.New()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(fsys.Mkdir(ltRepo + "/.git"))
	must(fsys.Mkdir("/outside"))
	const registry = ltHome + "/.claude/plugins/installed_plugins.json"
	must(fsys.WriteFile(registry, []byte(`{"file":"@@FILE `+registry+` @@","version":2,`+
		`"plugins":{"plug@market":[{"scope":"user","installPath":"`+ltPlug+`"}]}}`)))
	for i, s := range linkSlots {
		must(fsys.Mkdir(path.Dir(s.path)))
		st := byte(slotBase)
		if i < len(states) {
			st = states[i] % byte(len(linkTargets)+2)
		}
		switch {
		case st == slotBase:
			if s.files == nil {
				continue
			}
			for _, f := range s.files {
				p := path.Join(s.path, f)
				must(fsys.WriteFile(p, []byte(fileText(p))))
			}
		case st >= 2:
			must(fsys.Symlink(linkTargets[st-2], s.path))
		}
	}
	return fsys
}

// linkSeed encodes slot states: each key a slot's path (suffix), each value
// a link target ("-" for absent).
func linkSeed(links map[string]string) []byte {
	b := make([]byte, len(linkSlots))
	for suffix, target := range links {
		i := slices.IndexFunc(linkSlots, func(s linkSlot) bool { return strings.HasSuffix(s.path, suffix) })
		if i < 0 {
			panic("no slot " + suffix)
		}
		if target == "-" {
			b[i] = slotAbsent
			continue
		}
		j := slices.Index(linkTargets, target)
		if j < 0 {
			panic("no target " + target)
		}
		b[i] = byte(j + 2)
	}
	return b
}

// linkSeeds are the in-skill and out-of-skill links the seed corpus holds,
// each as (at discovery, after discovery).
var linkSeeds = [][2]map[string]string{
	{{}, {}},
	// A SKILL.md linked inside its repository (published collections).
	{{"/.claude/skills/x/SKILL.md": "../../../skills/x/SKILL.md"}, nil},
	{{"/.claude/skills/x/SKILL.md": ltRepo + "/skills/x/SKILL.md"}, nil},
	// ... then swapped for a link out of the repository.
	{{"/.claude/skills/x/SKILL.md": "../../../skills/x/SKILL.md"}, {"/skills/x/SKILL.md": "/outside/secret.md"}},
	{{}, {"/.claude/skills/x/SKILL.md": "/outside/secret.md"}},
	{{}, {"/.claude/skills/x/SKILL.md": ltHome + "/notes.md"}},
	// Links out of the skill and the repository.
	{{"/.claude/skills/x/SKILL.md": "/outside/secret.md"}, nil},
	{{"/.claude/skills/x/SKILL.md": "../../../../notes.md"}, nil},
	{{"/.claude/skills/x/ref.md": "/outside/secret.md", "/x/up": ".."}, nil},
	{{"/x/up": "../../../.."}, nil},
	{{"/x/sub": "/outside/dir"}, nil},
	{{"/x/sub": "../y"}, {"/.claude/skills/y": "/outside/dir"}},
	{{"/x/up": "."}, nil},
	{{"/x/up": "loop"}, nil},
	{{"/x/sub": "../../../docs"}, nil},
	{{"/.claude/skills/x/ref.md": "../../../docs/shared.md"}, nil},
	// A linked skill folder (S11) and links inside it.
	{{"/.claude/skills/w": "../../../skills/x"}, nil},
	{{"/.claude/skills/w": "/outside/dir"}, nil},
	{{"/.claude/skills/y": "../x"}, nil},
	{{"/.claude/skills/w": "/outside/dir"}, {"/outside/dir": "/home/u/notes.md"}},
	// A user skill may point into home, not outside it.
	{{"/z/SKILL.md": "../../../../notes.md", "/z/d": ltRepo}, nil},
	{{"/z/SKILL.md": "/outside/dir/SKILL.md"}, nil},
	{{"/z/d": "/"}, nil},
	// A plugin's SKILL.md may point into its installPath only.
	{{"/p/SKILL.md": ltHome + "/notes.md"}, nil},
	{{"/p/lib": ".."}, nil},
	{{"/p/lib": ltPlug}, {"/p/SKILL.md": "/outside/secret.md"}},
	{{"/.agents/skills/g/SKILL.md": ltRepo + "/docs/shared.md", "/docs": "/outside/dir"}, nil},
}

func addLinkSeeds(f *testing.F, texts ...string) {
	for i, s := range linkSeeds {
		after := s[1]
		if after == nil {
			after = s[0]
		} else {
			merged := map[string]string{}
			for k, v := range s[0] {
				merged[k] = v
			}
			for k, v := range after {
				merged[k] = v
			}
			after = merged
		}
		f.Add(append(linkSeed(s[0]), linkSeed(after)...), texts[i%len(texts)])
	}
}

// linkWorld is one fuzz run: the tree after discovery and the skills
// discovery found before it changed.
type linkWorld struct {
	t      *testing.T
	fsys   *memfs.FS
	skills []core.Skill
}

func newLinkWorld(t *testing.T, states []byte) *linkWorld {
	n := len(linkSlots)
	before, after := states, []byte(nil)
	if len(states) > n {
		before, after = states[:n], states[n:]
	}
	if after == nil {
		after = before
	}
	res, err := core.Discover(context.Background(), buildLinkTree(t, before), ltRepo, ltHome, core.DefaultOptions())
	if err != nil {
		t.Fatalf("Discover: %v", err)
	}
	return &linkWorld{t: t, fsys: buildLinkTree(t, after), skills: res.Skills}
}

// realpath is the realpath of p now, or "".
func (w *linkWorld) realpath(p string) string {
	r, err := w.fsys.Realpath(p)
	if err != nil {
		return ""
	}
	return r
}

// skillMDBoundaries are the S43 directories s's SKILL.md may lie in, as
// realpaths now.
func (w *linkWorld) skillMDBoundaries(s *core.Skill) []string {
	scope := ltHome
	switch {
	case s.Provider == "claude-plugins":
		scope = ltPlug
	case s.Level == "project":
		scope = ltRepo
	}
	root := path.Dir(path.Dir(s.FilePath))
	return []string{w.realpath(s.BaseDir), w.realpath(root), w.realpath(scope)}
}

func within(p, dir string) bool {
	return dir != "" && (p == dir || dir == "/" || strings.HasPrefix(p, dir+"/"))
}

// checkRead fails unless text, read for file (as the engine named it) of
// s, is one file of the tree that s may serve for that name.
func (w *linkWorld) checkRead(s *core.Skill, op, file, text string) {
	w.t.Helper()
	m := fileMarker.FindAllStringSubmatch(text, -1)
	if len(m) != 1 {
		w.t.Fatalf("%s %s of %q: %d files in the reply %q", op, file, s.Name, len(m), text)
	}
	read := m[0][1]
	dirs := []string{w.realpath(s.BaseDir)}
	if file == s.FilePath {
		dirs = w.skillMDBoundaries(s)
	}
	if !slices.ContainsFunc(dirs, func(d string) bool { return within(read, d) }) {
		w.t.Fatalf("%s %s of skill %q (%s) returned %s, outside %q", op, file, s.Name, s.FilePath, read, dirs)
	}
}

// checkCode fails unless err is a *core.Error with one of codes.
func (w *linkWorld) checkCode(op string, err error, codes ...string) {
	w.t.Helper()
	var e *core.Error
	if !errors.As(err, &e) || !slices.Contains(codes, e.Code) {
		w.t.Fatalf("%s: %v is not one of the SPEC codes %v", op, err, codes)
	}
}

// resolve checks one skill:// read of s.
func (w *linkWorld) resolve(s *core.Skill, rel string) {
	w.t.Helper()
	url := "skill://" + s.Name + "/" + rel
	r, err := core.Resolve(context.Background(), w.fsys, url, w.skills)
	if err != nil {
		w.checkCode("Resolve("+url+")", err, core.CodeInvalidURL, core.CodeMissingName, core.CodeUnknownSkill,
			core.CodeAbsolutePath, core.CodePathTraversal, core.CodePathEscape, core.CodeNotFound, core.CodeTooLarge)
		return
	}
	w.checkRead(s, "Resolve("+url+")", r.SourcePath, r.Content)
}

// FuzzListFiles: listFiles (S33, S44) over fuzzed links, and resolve of
// every file it lists and of a fuzzed path (S31).
func FuzzListFiles(f *testing.F) {
	addLinkSeeds(f, "", "SKILL.md", "ref.md", "sub/inner.md", "up/secret.md", "up/x/SKILL.md", "d/notes.md",
		"lib/skills/p/SKILL.md", "sub/SKILL.md", "up/up/up/up/x", "%2e%2e/ref.md", "up/docs/shared.md")
	f.Fuzz(func(t *testing.T, states []byte, rel string) {
		w := newLinkWorld(t, states)
		for i := range w.skills {
			s := &w.skills[i]
			w.resolve(s, rel)
			w.resolve(s, "")
			l, err := core.ListFiles(context.Background(), w.fsys, s.Name, w.skills)
			if err != nil {
				w.checkCode("ListFiles("+s.Name+")", err, core.CodeNotFound, core.CodeUnknownSkill)
				continue
			}
			if !slices.IsSorted(l.Files) || len(slices.Compact(slices.Clone(l.Files))) != len(l.Files) {
				t.Fatalf("ListFiles(%s): not sorted or not unique: %q", s.Name, l.Files)
			}
			if len(l.Files) > core.MaxListFiles {
				t.Fatalf("ListFiles(%s): %d files", s.Name, len(l.Files))
			}
			for _, f := range l.Files {
				p := path.Join(s.BaseDir, f)
				data, err := w.fsys.ReadFile(p)
				if err != nil {
					t.Fatalf("ListFiles(%s) lists %s, which cannot be read: %v", s.Name, f, err)
				}
				w.checkRead(s, "ListFiles", p, string(data))
				// S44: what is listed can be read.
				r, err := core.Resolve(context.Background(), w.fsys, "skill://"+s.Name+"/"+f, w.skills)
				if err != nil {
					t.Fatalf("ListFiles(%s) lists %s, which Resolve refuses: %v", s.Name, f, err)
				}
				w.checkRead(s, "Resolve", r.SourcePath, r.Content)
			}
		}
	})
}

// FuzzExpand: expandCommand (S35, S44) of every skill over fuzzed links,
// and of the fuzzed text.
func FuzzExpand(f *testing.F) {
	addLinkSeeds(f, "/skill:x", "/skill:z args", "/skill:plug:p", "/skill:w\nmore", "/skill:", "/skill:y /skill:x")
	f.Fuzz(func(t *testing.T, states []byte, text string) {
		w := newLinkWorld(t, states)
		expand := func(text string) {
			e, err := core.ExpandCommand(context.Background(), w.fsys, text, w.skills, true)
			if err != nil {
				w.checkCode("ExpandCommand("+text+")", err, core.CodeNotFound, core.CodeInvalidArgument,
					core.CodePathEscape, core.CodeTooLarge, core.CodeUnknownSkill, core.CodeMissingName)
				return
			}
			if e == nil {
				return
			}
			i := slices.IndexFunc(w.skills, func(s core.Skill) bool { return s.Name == e.Name })
			if i < 0 {
				t.Fatalf("ExpandCommand(%q) expanded an unknown skill %q", text, e.Name)
			}
			body, _, _ := strings.Cut(e.Message, "\n\n---\n\nSkill: ")
			w.checkRead(&w.skills[i], "ExpandCommand", w.skills[i].FilePath, body)
		}
		expand(text)
		for _, s := range w.skills {
			expand("/skill:" + s.Name)
		}
	})
}
