package runtimetest

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/internal/corpus"
	"github.com/skilldex/skilldex/internal/hosttest"
	"github.com/skilldex/skilldex/wasmhost"
	"github.com/skilldex/skilldex/wire"
)

// Differential fuzzing: random trees and options (FuzzDifferentialDiscover)
// and random skill:// URLs (FuzzDifferentialResolve) run natively through
// wire.Call and through the module under wazero, on the same in-memory
// filesystem; the replies must be identical bytes (SPEC S42).
//
//	go test ./runtime-test -run '^$' -fuzz FuzzDifferentialDiscover -fuzztime 10m
//	go test ./runtime-test -run '^$' -fuzz FuzzDifferentialResolve -fuzztime 10m
//
// Seeds: the f.Add calls below and testdata/fuzz/<FuzzName>/.

var (
	fuzzOnce sync.Once
	fuzzSwap = &hosttest.SwapFS{}
	fuzzEng  *wasmhost.Engine
)

// fuzzEngine is one engine per test process (each fuzz worker is a
// process), reused by every input through fuzzSwap.
func fuzzEngine(t testing.TB) *wasmhost.Engine {
	fuzzOnce.Do(func() {
		e, err := module.Instantiate(context.Background(), fuzzSwap)
		if err != nil {
			t.Fatal(err)
		}
		fuzzEng = e // closed with the module at the end of TestMain
	})
	if fuzzEng == nil {
		t.Fatal("no fuzz engine")
	}
	return fuzzEng
}

// differ runs request natively and through wasm on fsys and fails t when
// the replies differ. describe is called for the failure message.
func differ(t *testing.T, fsys core.FS, request []byte, describe func() string) {
	t.Helper()
	e := fuzzEngine(t)
	native := wire.Call(fsys, request)
	fuzzSwap.FS = fsys
	// Twice: the instance serves every input, so the first call's reply may
	// stand on a record of another tree's discovery (it must not), and the
	// second on the first's, of this tree (wire.Session).
	for i := 0; i < 2; i++ {
		got, err := e.Call(context.Background(), request)
		if err != nil {
			fuzzSwap.FS = nil
			t.Fatalf("wasm call %d failed: %v\nrequest: %s\n%s", i+1, err, request, describe())
		}
		if !bytes.Equal(got, native) {
			fuzzSwap.FS = nil
			t.Fatalf("S42: wasm call %d and native differ\nrequest: %s\nwasm:   %s\nnative: %s\n%s", i+1, request, got, native, describe())
		}
	}
	fuzzSwap.FS = nil
}

// gen turns fuzz bytes into choices; past the end every choice is 0.
type gen struct {
	b   []byte
	i   int
	log []string // what was built, for failure messages
}

func (g *gen) byte() byte {
	if g.i >= len(g.b) {
		return 0
	}
	c := g.b[g.i]
	g.i++
	return c
}

func (g *gen) done() bool { return g.i >= len(g.b) }

func (g *gen) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(g.byte()) % n
}

func (g *gen) pick(list []string) string { return list[g.intn(len(list))] }

// raw returns up to max bytes of the input, as they are.
func (g *gen) raw(max int) string {
	n := g.intn(max + 1)
	var b []byte
	for ; n > 0 && !g.done(); n-- {
		b = append(b, g.byte())
	}
	return string(b)
}

const fuzzHome = "/home/u"

var (
	fuzzCwds = []string{"/home/u/work/proj", "/home/u/work/proj/sub", "/home/u", "/work/proj", "/", "/home/u/work"}
	// fuzzRoots are the directories the providers scan (SPEC section 4)
	// for the cwds above, plus custom and plugin roots and decoys.
	fuzzRoots = []string{
		"/home/u/.xcsh/agent/skills", "/home/u/.xcsh/skills", "/home/u/.pi/agent/skills", "/home/u/.claude/skills",
		"/home/u/.agent/skills", "/home/u/.agents/skills", "/home/u/.codex/skills",
		"/home/u/work/proj/.xcsh/skills", "/home/u/work/proj/.claude/skills", "/home/u/work/proj/.agents/skills",
		"/home/u/work/proj/.codex/skills", "/home/u/work/.claude/skills", "/home/u/work/proj/sub/.xcsh/skills",
		"/home/u/work/proj/.pi/skills", "/work/proj/.agent/skills", "/work/proj/.xcsh/skills",
		"/home/u/custom", "/opt/skills", "/home/u/.claude/plugins/cache/p/skills", "/home/u/.extra/skills",
	}
	fuzzNames = []string{"a", "b", "c", "dup", "Dup", "x-y", "café", "bad name", "-x", "a--b",
		strings.Repeat("n", 65), ".hidden", "_u", "a.b", "SKILL.md", "skill", "z9", "\xff"}
	fuzzDescriptions = []string{"d", "", "'quoted'", "\"esc\\u00e9\"", "|\n  block\n  text", ">\n  folded", "null", "123",
		"true", "[a, b]", "{k: v}", "a: b", strings.Repeat("long ", 250), "multi\n  line", "# comment", "~"}
	fuzzExtras = []string{"globs: ['*.go']", "contexts: [a, b]", "contexts: x", "alwaysApply: true", "alwaysApply: yes",
		"disable-model-invocation: true", "metadata:\n  k: v", "x: &a [1]\ny: *a", "k: 1e3", "k: 0x1f", "k: 2024-01-01",
		"k: ~", "bad: [unclosed", "\tindent: tab", "key: value: more", "- list item", "dup: 1\ndup: 2", "enabled: false",
		"n: -0", "n: .inf", "n: 12345678901234567890", "s: \"\\ud800\"", "name: other", "description: again",
		"x: !!binary aGk=", "? complex\n: key", "nested:\n  - a\n  - {b: [c, {d: e}]}", "k: 'it''s'"}
	fuzzGlobs = []string{"*", "a*", "!a", "d?p", "[ab]", "[", "skill:*", "x-*", "**", "{a,b}", "\\", "", "dup", "!*", "[!a]"}
	fuzzDirs  = []string{"/home/u/custom", "~/custom", "custom", "../x", "/opt/skills", "", "/home/u/custom/", "~", "/",
		"/home/u/.claude/skills", ".", "/nope"}
	fuzzCodes = []string{"EACCES", "EIO", "ELOOP", "ENOTDIR", "ENOENT", "EPERM", "EISDIR"}
)

// skillMD returns the text of a SKILL.md whose directory is named dir.
func (g *gen) skillMD(dir string) string {
	frontmatter := func() string {
		var b strings.Builder
		b.WriteString("---\n")
		if g.intn(8) != 0 {
			b.WriteString("name: " + g.pick(append([]string{dir, dir, dir, "", "'" + dir + "'", "[a]", "a # c"}, fuzzNames...)) + "\n")
		}
		if g.intn(6) != 0 {
			b.WriteString("description: " + g.pick(fuzzDescriptions) + "\n")
		}
		for n := g.intn(4); n > 0; n-- {
			b.WriteString(g.pick(fuzzExtras) + "\n")
		}
		b.WriteString("---\n# body\n")
		return b.String()
	}
	switch g.intn(10) {
	case 0:
		return g.raw(200)
	case 1:
		return "no frontmatter here\n"
	case 2:
		return "\ufeff" + strings.ReplaceAll(frontmatter(), "\n", "\r\n")
	case 3:
		return "---\nname: " + dir + "\n"
	case 4: // a frontmatter around and past the 8 KiB prefix the engine reads first
		return "---\nname: " + dir + "\ndescription: " + strings.Repeat("x", 3000+g.intn(8)*1000) + "\n---\n"
	case 5:
		return ""
	case 6:
		return "---\n" + g.raw(100) + "\n---\n"
	case 7: // a large body: read past the module's 64 KiB first buffer
		return frontmatter() + strings.Repeat("body line\n", 7000*g.intn(3))
	}
	return frontmatter()
}

// tree builds a random skills tree into m and returns the created paths
// (for symlink targets and faults).
func (g *gen) tree(m *memfs.FS, cwd string) []string {
	var made []string
	note := func(what, p string, err error) {
		if err == nil {
			made = append(made, p)
			g.log = append(g.log, what+" "+p)
		}
	}
	if g.intn(8) != 0 {
		note("mkdir", cwd, m.Mkdir(cwd))
	}
	switch g.intn(5) {
	case 1:
		note("mkdir", "/home/u/work/proj/.git", m.Mkdir("/home/u/work/proj/.git"))
	case 2:
		note("file", "/home/u/work/.git", m.WriteFile("/home/u/work/.git", []byte("gitdir: x")))
	case 3:
		note("mkdir", "/work/proj/.git", m.Mkdir("/work/proj/.git"))
	case 4:
		note("mkdir", "/home/u/.git", m.Mkdir("/home/u/.git"))
	}
	if g.intn(6) == 0 {
		reg := g.pick([]string{
			`{"plugins":{"p@market":[{"installPath":"/home/u/.claude/plugins/cache/p","scope":"user"}]}}`,
			`{"plugins":{"p@m":[{"installPath":"/home/u/.claude/plugins/cache/p","scope":"project","projectPath":"/home/u/work/proj"}],"bad":[]}}`,
			`{"plugins":[]}`, `not json`, `{"plugins":{"q@m":[{"installPath":"/home/u/.claude/plugins/cache/p","enabled":false}]}}`,
		})
		note("file", "/home/u/.claude/plugins/installed_plugins.json", m.WriteFile("/home/u/.claude/plugins/installed_plugins.json", []byte(reg)))
	}
	target := func() string {
		if len(made) > 0 && g.intn(3) != 0 {
			return made[g.intn(len(made))]
		}
		return g.pick([]string{"../a", "a", "/nope", "../../.claude/skills/b", ".", "..", "/", "loop", "../loop/x", "SKILL.md", "/home/u/shared/s"})
	}
	for n := 0; n < 40 && !g.done(); n++ {
		root := g.pick(fuzzRoots)
		name := g.pick(fuzzNames)
		dir := root + "/" + name
		switch g.intn(12) {
		case 0, 1, 2, 3:
			note("skill", dir+"/SKILL.md", m.WriteFile(dir+"/SKILL.md", []byte(g.skillMD(name))))
		case 4:
			group := g.pick([]string{"group", ".hidden-group", "nested/deeper"})
			p := root + "/" + group + "/" + name + "/SKILL.md"
			note("skill", p, m.WriteFile(p, []byte(g.skillMD(name))))
		case 5:
			t := target()
			note("symlink", dir+" -> "+t, m.Symlink(t, dir))
		case 6:
			note("file", dir, m.WriteFile(dir, []byte(g.raw(20))))
		case 7:
			note("mkdir", dir+"/SKILL.md", m.Mkdir(dir+"/SKILL.md"))
		case 8:
			t := target()
			note("symlink", dir+"/SKILL.md -> "+t, m.Symlink(t, dir+"/SKILL.md"))
		case 9:
			t := target()
			note("symlink", root+" -> "+t, m.Symlink(t, root))
		case 10:
			p := dir + "/" + g.pick([]string{"ref.md", "docs/guide.md", "skill.md", "SKILL.MD", ".env", "sub/SKILL.md"})
			note("file", p, m.WriteFile(p, []byte(g.raw(40))))
		case 11:
			p := g.pick([]string{cwd, fuzzHome + "/.xcsh/agent", "/home/u/work", cwd + "/.xcsh", "/home/u/.pi/agent"}) + "/" + g.pick([]string{"XCSH.md", "AGENTS.md", "CLAUDE.md"})
			note("file", p, m.WriteFile(p, []byte(g.raw(30))))
		}
	}
	return made
}

// options returns a random options object (keys absent keep their
// defaults), sometimes of the wrong types.
func (g *gen) options() json.RawMessage {
	if g.intn(3) == 0 {
		return nil
	}
	if g.intn(20) == 0 {
		return json.RawMessage(g.pick([]string{`{"unknown":1}`, `{"enabled":"yes"}`, `[]`, `{"customDirectories":"x"}`, `null`, `{"extraProviders":[{"priority":"high"}]}`}))
	}
	o := map[string]any{}
	for _, k := range []string{"enabled", "enableCodexUser", "enableClaudeUser", "enableClaudeProject", "enablePiUser", "enablePiProject"} {
		if g.intn(4) == 0 {
			o[k] = g.intn(3) != 0
		}
	}
	list := func(pool []string) []string {
		var l []string
		for n := g.intn(4); n > 0; n-- {
			l = append(l, g.pick(pool))
		}
		return l
	}
	if g.intn(3) == 0 {
		o["customDirectories"] = list(fuzzDirs)
	}
	if g.intn(3) == 0 {
		o["ignoredSkills"] = list(fuzzGlobs)
	}
	if g.intn(3) == 0 {
		o["includeSkills"] = list(fuzzGlobs)
	}
	if g.intn(4) == 0 {
		o["disabledExtensions"] = list([]string{"skill:a", "skill:dup", "a", "skill:*", "skill:b"})
	}
	if g.intn(4) == 0 {
		o["configDirName"] = g.pick([]string{".xcsh", ".pi", "", "..", "a/b", ".claude", "/abs"})
	}
	if g.intn(4) == 0 {
		var ps []map[string]any
		for n := g.intn(3); n > 0; n-- {
			ps = append(ps, map[string]any{
				"id":                 g.pick([]string{"extra", "native", "x", "", "claude"}),
				"displayName":        g.pick([]string{"Extra", ""}),
				"priority":           []int{-1, 0, 70, 80, 100, 200}[g.intn(6)],
				"userDirs":           list([]string{".extra/skills", "x", "", "../y", "/abs", ".claude/skills"}),
				"projectDirs":        list([]string{".extra/skills", ".xcsh/skills", "", ".."}),
				"userFirst":          g.intn(2) == 0,
				"cwdOnly":            g.intn(2) == 0,
				"requireDescription": g.intn(2) == 0,
			})
		}
		o["extraProviders"] = ps
	}
	b, _ := json.Marshal(o)
	return b
}

// request returns a random request on the tree: mostly discover, and each
// other operation that runs discovery.
func (g *gen) request(cwd string) []byte {
	r := map[string]any{"op": "discover", "cwd": cwd, "home": fuzzHome}
	if o := g.options(); o != nil {
		r["options"] = o
	}
	switch g.intn(16) {
	case 9:
		r["op"] = "commands"
	case 10:
		r["op"] = "renderPrompt"
		r["format"] = g.pick([]string{"markdown", "xml", "", "bad"})
		r["maxChars"] = []int{0, 0, 10, 100, 400, -1}[g.intn(6)]
		r["readTool"] = g.intn(4) != 0
	case 11:
		r["op"] = "explain"
		r["name"] = g.pick(fuzzNames)
	case 12:
		r["op"] = "listFiles"
		r["name"] = g.pick(fuzzNames)
	case 13:
		r["op"] = "expandCommand"
		r["text"] = g.pick([]string{"/skill:a x y", "/skill:dup", "/skill:", "hello", "/skill:a\nmore", "/skill:café  args "})
		r["enableSkillCommands"] = g.intn(4) != 0
	case 14:
		r["op"] = "contextFiles"
	case 15:
		r["op"] = "scanDir"
		r["dir"] = g.pick(fuzzRoots)
		r["source"] = g.pick([]string{"", "custom:user", "claude:project", "native", ":user", "x:y"})
		delete(r, "cwd")
		delete(r, "home")
		delete(r, "options")
	}
	b, _ := json.Marshal(r)
	return b
}

// faults wraps fsys with up to three injected failures on paths of the
// tree (codes of the ABI's errno table only: see README.md).
func (g *gen) faults(fsys core.FS, made []string) core.FS {
	if g.intn(4) != 0 || len(made) == 0 {
		return fsys
	}
	var fs []corpus.Fault
	for n := 1 + g.intn(3); n > 0; n-- {
		p := made[g.intn(len(made))]
		if i := strings.Index(p, " -> "); i >= 0 {
			p = p[:i]
		}
		if g.intn(3) == 0 { // a parent: a root or a skill directory
			p = p[:max(strings.LastIndexByte(p, '/'), 1)]
		}
		f := corpus.Fault{Op: g.pick(corpus.Ops), Path: p, Code: g.pick(fuzzCodes)}
		fs = append(fs, f)
		g.log = append(g.log, "fault "+f.Op+" "+f.Path+" "+f.Code)
	}
	return corpus.WithFaults(fsys, fs)
}

// randomSeeds are deterministic random inputs, so a plain go test already
// covers varied trees.
func randomSeeds(n, size int) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([][]byte, n)
	for i := range out {
		out[i] = make([]byte, size)
		for j := range out[i] {
			out[i][j] = byte(r.UintN(256))
		}
	}
	return out
}

// headerSize is the part of a FuzzDifferentialDiscover input that chooses
// the request, its options and the faults.
const headerSize = 64

func FuzzDifferentialDiscover(f *testing.F) {
	for _, s := range randomSeeds(24, 320) {
		f.Add(s)
	}
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		// The first headerSize bytes choose the request and the faults, the
		// rest builds the tree, so each part mutates independently.
		h := &gen{b: data[:min(len(data), headerSize)]}
		g := &gen{b: data[min(len(data), headerSize):]}
		cwd := h.pick(fuzzCwds)
		req := h.request(cwd)
		m := memfs.New()
		made := g.tree(m, cwd)
		fsys := h.faults(m, made)
		differ(t, fsys, req, func() string { return "tree:\n  " + strings.Join(append(g.log, h.log...), "\n  ") })
	})
}

var (
	resolveOnce sync.Once
	resolveTree *memfs.FS
)

// resolveFS is a fixed tree with resources of every kind a skill:// URL
// can reach or must not reach (SPEC S29-S31).
func resolveFS(t testing.TB) *memfs.FS {
	resolveOnce.Do(func() {
		m := memfs.New()
		files := map[string]string{
			"/home/u/.xcsh/agent/skills/a/SKILL.md":             "---\nname: a\ndescription: skill a\n---\nbody a\n",
			"/home/u/.xcsh/agent/skills/a/ref.md":               "# ref\n",
			"/home/u/.xcsh/agent/skills/a/docs/guide.md":        "guide\r\n",
			"/home/u/.xcsh/agent/skills/a/space name.md":        "space\n",
			"/home/u/.xcsh/agent/skills/a/%41.md":               "percent\n",
			"/home/u/.xcsh/agent/skills/a/café.md":              "\ufeffcafé\n",
			"/home/u/.xcsh/agent/skills/a/UPPER.MD":             "upper\n",
			"/home/u/.xcsh/agent/skills/a/empty.txt":            "",
			"/home/u/.xcsh/agent/skills/a/bad\xffutf8.txt":      "bad \xff bytes\n",
			"/home/u/.xcsh/agent/skills/a/big.txt":              strings.Repeat("0123456789abcdef", 9000),
			"/home/u/.xcsh/agent/skills/a/back\\slash.txt":      "backslash\n",
			"/home/u/.xcsh/agent/skills/a/sub/a/SKILL.md":       "---\nname: a\n---\nnested\n",
			"/home/u/.claude/skills/b/SKILL.md":                 "---\nname: b\ndescription: skill b\n---\nbody b\n",
			"/home/u/.claude/skills/b/x.txt":                    "x\n",
			"/home/u/shared/c/SKILL.md":                         "---\nname: c\ndescription: skill c\n---\nbody c\n",
			"/home/u/shared/c/file":                             "c file\n",
			"/home/u/shared/outside.txt":                        "outside\n",
			"/home/u/secret.txt":                                "secret\n",
			"/home/u/.claude/plugins/cache/p/skills/d/SKILL.md": "---\nname: d\ndescription: plugin skill\n---\n",
			"/home/u/.claude/plugins/installed_plugins.json":    `{"plugins":{"p@m":[{"installPath":"/home/u/.claude/plugins/cache/p"}]}}`,
		}
		for p, body := range files {
			if err := m.WriteFile(p, []byte(body)); err != nil {
				panic(err)
			}
		}
		for link, target := range map[string]string{
			"/home/u/.xcsh/agent/skills/a/link-out":  "/home/u/secret.txt",
			"/home/u/.xcsh/agent/skills/a/link-in":   "ref.md",
			"/home/u/.xcsh/agent/skills/a/dir-link":  "docs",
			"/home/u/.xcsh/agent/skills/a/up-link":   "../../../../shared",
			"/home/u/.xcsh/agent/skills/a/loop":      "loop",
			"/home/u/.xcsh/agent/skills/a/dangling":  "nope",
			"/home/u/.agents/skills/c":               "/home/u/shared/c",
			"/home/u/shared/c/escape":                "../outside.txt",
			"/home/u/.xcsh/agent/skills/a/SKILL.lnk": "SKILL.md",
		} {
			if err := m.Symlink(target, link); err != nil {
				panic(err)
			}
		}
		resolveTree = m
	})
	return resolveTree
}

func FuzzDifferentialResolve(f *testing.F) {
	for _, u := range []string{
		"skill://a", "skill://a/", "skill://a/ref.md", "skill://a/docs/guide.md", "skill://a/../b/x.txt",
		"skill://a/%2e%2e/secret.txt", "skill://a/link-out", "skill://a/link-in", "skill://a/dir-link/guide.md",
		"skill://a/up-link/outside.txt", "skill://a/loop", "skill://a/dangling", "skill://a/space%20name.md",
		"skill://a/%2541.md", "skill://a/caf%C3%A9.md", "skill://a/bad%FFutf8.txt", "skill://A/ref.md",
		"skill://b/x.txt", "skill://c/file", "skill://c/escape", "skill://p:d", "skill://p:d/SKILL.md",
		"skill://nope/x", "skill:///x", "skill://", "http://a/ref.md", "SKILL://a/ref.md", "skill://a/big.txt",
		"skill://a//ref.md", "skill://a/./ref.md", "skill://a?x", "skill://a#f", "skill://a/docs/", "skill://a/%00",
		"skill://a/back\\slash.txt", "skill://a/..\\..\\secret.txt", "skill://a/C:/x", "skill://a/sub/a",
		"skill://a/empty.txt", "skill://a/UPPER.MD", "skill://a/%", "skill://a/%zz", "skill://a%2Fref.md",
	} {
		f.Add(u)
	}
	// The corpus's resolve URLs.
	if cases, err := corpus.LoadDir(corpusDir); err == nil {
		for _, c := range cases {
			var r struct{ Op, URL string }
			if json.Unmarshal(c.Request, &r) == nil && r.Op == "resolve" {
				f.Add(r.URL)
			}
		}
	}
	f.Fuzz(func(t *testing.T, url string) {
		req, _ := json.Marshal(map[string]string{"op": "resolve", "cwd": "/home/u/work", "home": fuzzHome, "url": url})
		differ(t, resolveFS(t), req, func() string { return "url: " + url })
	})
}
