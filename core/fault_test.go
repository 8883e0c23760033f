package core_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/fsadaptertest"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/fsadapter/osfs"
	"github.com/skilldex/skilldex/internal/corpus"
	"github.com/skilldex/skilldex/wire"
)

// Fault tests: the filesystem misbehaves under one skill, and
// discovery reports it with the path and the code, or skips it silently
// where SPEC S11/S12 say so, and loads every neighbour. Each case runs on
// memfs and on the OS (osfs over a temporary directory); where both run,
// their JSON must be byte-identical (S42).
//
// The fixture: home /home/u, cwd /work/p (no repository). Neighbours
// aaa-good and zzz-good sit in the root under test, /home/u/.claude/skills,
// around the broken entry; other-good in /home/u/.agents/skills and
// native-good in /home/u/.xcsh/agent/skills.

const (
	fHome  = "/home/u"
	fCwd   = "/work/p"
	fRoot  = fHome + "/.claude/skills"
	fOther = fHome + "/.agents/skills"
	fBad   = fRoot + "/broken"
	fFile  = fBad + "/SKILL.md"
)

func skillMD(name, desc string) []byte {
	return []byte("---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n")
}

// faultEnv is one filesystem a case runs on.
type faultEnv struct {
	kind string // "memfs" or "osfs"
	b    fsadaptertest.Builder
	base core.FS
	dir  string // the host directory behind "/" (osfs only)
	spy  *spyFS
}

// host is the host path of the virtual path p (osfs only).
func (e *faultEnv) host(p string) string { return filepath.Join(e.dir, filepath.FromSlash(p)) }

// remove makes p and everything under it vanish: on the OS for real, on
// memfs (which has no remove) by answering ENOENT for it from now on.
func (e *faultEnv) remove(t *testing.T, p string) {
	if e.kind == "osfs" {
		if err := os.RemoveAll(e.host(p)); err != nil {
			t.Error(err)
		}
		return
	}
	e.spy.gone = append(e.spy.gone, p)
}

func newMemEnv(t *testing.T) *faultEnv {
	m := memfs.New()
	return &faultEnv{kind: "memfs", b: m, base: m}
}

func newOSEnv(t *testing.T) *faultEnv { return newOSEnvIn(t, t.TempDir()) }

// newBulkOSEnv is newOSEnv on a memory-backed filesystem (/dev/shm) when
// there is one, for the tests that write tens of thousands of files: on a
// loaded disk, writing them takes most of a minute; reading is what is
// tested.
func newBulkOSEnv(t *testing.T) *faultEnv {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "skilldex-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return newOSEnvIn(t, dir)
		}
	}
	return newOSEnv(t)
}

func newOSEnvIn(t *testing.T, dir string) *faultEnv {
	fsys, err := osfs.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &faultEnv{kind: "osfs", b: fsadaptertest.OSBuilder(dir), base: fsys, dir: dir}
}

// spyFS wraps an FS: it counts the bytes handed out by ReadFile and
// ReadFilePrefix, runs a hook after each call (to change the tree between
// two calls of the engine), and answers ENOENT for vanished paths.
type spyFS struct {
	fs    core.FS
	pr    core.PrefixReader
	after func(op, p string)
	gone  []string

	mu        sync.Mutex
	readBytes int
	calls     map[string]int
}

var _ core.PrefixReader = (*spyFS)(nil)

func newSpy(fsys core.FS) *spyFS {
	s := &spyFS{fs: fsys, calls: map[string]int{}}
	s.pr, _ = fsys.(core.PrefixReader)
	return s
}

func (s *spyFS) enter(op, p string) error {
	s.mu.Lock()
	s.calls[op]++
	gone := slices.ContainsFunc(s.gone, func(g string) bool { return p == g || strings.HasPrefix(p, g+"/") })
	s.mu.Unlock()
	if gone {
		return &core.PathError{Op: op, Path: p, Code: core.ENOENT}
	}
	return nil
}

func (s *spyFS) leave(op, p string, n int) {
	s.mu.Lock()
	s.readBytes += n
	s.mu.Unlock()
	if s.after != nil {
		s.after(op, p)
	}
}

func (s *spyFS) ReadDir(p string) ([]core.DirEntry, error) {
	if err := s.enter("readDir", p); err != nil {
		return nil, err
	}
	ents, err := s.fs.ReadDir(p)
	s.leave("readDir", p, 0)
	return ents, err
}

func (s *spyFS) Stat(p string) (core.FileType, error) {
	if err := s.enter("stat", p); err != nil {
		return core.TypeOther, err
	}
	t, err := s.fs.Stat(p)
	s.leave("stat", p, 0)
	return t, err
}

func (s *spyFS) Lstat(p string) (core.FileType, error) {
	if err := s.enter("lstat", p); err != nil {
		return core.TypeOther, err
	}
	t, err := s.fs.Lstat(p)
	s.leave("lstat", p, 0)
	return t, err
}

func (s *spyFS) ReadFile(p string) ([]byte, error) {
	if err := s.enter("readFile", p); err != nil {
		return nil, err
	}
	data, err := s.fs.ReadFile(p)
	s.leave("readFile", p, len(data))
	return data, err
}

func (s *spyFS) ReadFilePrefix(p string, n int) ([]byte, bool, error) {
	if err := s.enter("readFile", p); err != nil {
		return nil, false, err
	}
	if s.pr == nil {
		data, err := s.fs.ReadFile(p)
		s.leave("readFile", p, len(data))
		if len(data) > n {
			return data[:n], false, err
		}
		return data, true, err
	}
	data, complete, err := s.pr.ReadFilePrefix(p, n)
	s.leave("readFile", p, len(data))
	return data, complete, err
}

func (s *spyFS) Realpath(p string) (string, error) {
	if err := s.enter("realpath", p); err != nil {
		return "", err
	}
	r, err := s.fs.Realpath(p)
	s.leave("realpath", p, 0)
	return r, err
}

// faultCase is one way the filesystem fails under the broken entry.
type faultCase struct {
	name   string
	build  func(t *testing.T, b fsadaptertest.Builder)
	faults []corpus.Fault
	// setup runs after build: chmod, hooks on e.spy.
	setup func(t *testing.T, e *faultEnv)
	// only: run on this env kind only ("osfs" or "memfs"), with the reason.
	only, why string
	// skipRoot: skip the osfs run when running as root, for this reason.
	skipRoot string
	// rootLost: the root under test cannot be listed, so aaa-good and
	// zzz-good go with it; the other roots' neighbours must stay.
	rootLost bool

	loaded map[string]string // name -> description, loaded besides the neighbours
	absent []string          // names that must not be loaded
	// warn: each entry lists substrings one warning must hold (the path
	// and the code); there are exactly that many warnings.
	warn   [][]string
	silent []string // paths no warning may name
}

func buildNeighbours(t *testing.T, b fsadaptertest.Builder) {
	t.Helper()
	for _, w := range []struct{ path, name string }{
		{fRoot + "/aaa-good/SKILL.md", "aaa-good"},
		{fRoot + "/zzz-good/SKILL.md", "zzz-good"},
		{fOther + "/other-good/SKILL.md", "other-good"},
		{fHome + "/.xcsh/agent/skills/native-good/SKILL.md", "native-good"},
	} {
		if err := b.WriteFile(w.path, skillMD(w.name, "a good neighbour")); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Mkdir(fCwd); err != nil {
		t.Fatal(err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// runFaultCases runs each case on memfs and on the OS.
func runFaultCases(t *testing.T, cases []faultCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			outputs := map[string][]byte{}
			for _, kind := range []string{"memfs", "osfs"} {
				if tc.only != "" && tc.only != kind {
					continue
				}
				ok := t.Run(kind, func(t *testing.T) {
					if kind == "osfs" && tc.skipRoot != "" && os.Geteuid() == 0 {
						t.Skip("running as root: " + tc.skipRoot)
					}
					var e *faultEnv
					if kind == "memfs" {
						e = newMemEnv(t)
					} else {
						e = newOSEnv(t)
					}
					buildNeighbours(t, e.b)
					if tc.build != nil {
						tc.build(t, e.b)
					}
					e.spy = newSpy(corpus.WithFaults(e.base, tc.faults))
					if tc.setup != nil {
						tc.setup(t, e)
					}
					res, err := core.Discover(context.Background(), e.spy, fCwd, fHome, core.DefaultOptions())
					if err != nil {
						t.Fatal(err)
					}
					checkFaultResult(t, tc, res)
					outputs[kind] = wire.AppendJSON(nil, res)
				})
				if !ok {
					return
				}
			}
			if m, o := outputs["memfs"], outputs["osfs"]; m != nil && o != nil && !bytes.Equal(m, o) {
				t.Errorf("S42: memfs and osfs differ:\n%s\n%s", m, o)
			}
		})
	}
}

func checkFaultResult(t *testing.T, tc faultCase, res *core.Result) {
	t.Helper()
	loaded := map[string]core.Skill{}
	for _, s := range res.Skills {
		loaded[s.Name] = s
	}
	want := []string{"other-good", "native-good"}
	if !tc.rootLost {
		want = append(want, "aaa-good", "zzz-good")
	}
	for _, n := range want {
		if _, ok := loaded[n]; !ok {
			t.Errorf("neighbour %s lost; skills %v, warnings %+v", n, names(res.Skills), res.Warnings)
		}
	}
	for n, d := range tc.loaded {
		if s, ok := loaded[n]; !ok {
			t.Errorf("%q not loaded; skills %q, warnings %+v", n, names(res.Skills), res.Warnings)
		} else if s.Description != d {
			t.Errorf("%q: description %q, want %q", n, s.Description, d)
		}
	}
	for _, n := range tc.absent {
		if _, ok := loaded[n]; ok {
			t.Errorf("%q loaded, want it skipped", n)
		}
	}
	for _, subs := range tc.warn {
		if !slices.ContainsFunc(res.Warnings, func(w core.Warning) bool {
			for _, s := range subs {
				if !strings.Contains(w.Message, s) {
					return false
				}
			}
			return true
		}) {
			t.Errorf("no warning holding %q; warnings %+v", subs, res.Warnings)
		}
	}
	for _, p := range tc.silent {
		for _, w := range res.Warnings {
			if strings.Contains(w.Message, p) || strings.Contains(w.SkillPath, p) {
				t.Errorf("S11: %s should be skipped silently, got %+v", p, w)
			}
		}
	}
	if len(res.Warnings) != len(tc.warn) {
		t.Errorf("%d warnings, want %d: %+v", len(res.Warnings), len(tc.warn), res.Warnings)
	}
}

func names(list []core.Skill) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.Name
	}
	return out
}

func readFailed(path, code string) []string {
	return []string{"Failed to read skill file: " + path + " (" + code + ")"}
}

func rootFailed(path, code string) []string {
	return []string{"Failed to read skills directory: " + path + " (" + code + ")"}
}

func writeBroken(t *testing.T, b fsadaptertest.Builder) {
	must(t, b.WriteFile(fFile, skillMD("broken", "a broken skill")))
}

// chmod sets the mode of the host path of p and restores it at cleanup.
func chmod(t *testing.T, e *faultEnv, p string, mode os.FileMode) {
	h := e.host(p)
	fi, err := os.Lstat(h)
	must(t, err)
	must(t, os.Chmod(h, mode))
	t.Cleanup(func() { _ = os.Chmod(h, fi.Mode().Perm()) })
}

const rootOnly = "the kernel grants root every permission, so chmod cannot produce EACCES on disk; " +
	"the injected EACCES cases above cover the engine's handling on both filesystems"

func TestDiscover_faults(t *testing.T) {
	linkChain := func(n int) func(t *testing.T, b fsadaptertest.Builder) {
		return func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.WriteFile("/store/chain/SKILL.md", skillMD("chained", "at the end of a chain")))
			prev := "/store/chain"
			for i := n - 1; i >= 1; i-- {
				hop := "/store/hop" + strconv.Itoa(i)
				must(t, b.Symlink(prev, hop))
				prev = hop
			}
			must(t, b.Symlink(prev, fBad))
		}
	}
	runFaultCases(t, []faultCase{
		// EACCES, injected (both filesystems).
		{name: "S11 EACCES looking into a skill folder", build: writeBroken,
			faults: []corpus.Fault{{Op: "lstat", Path: fFile, Code: core.EACCES}, {Op: "readFile", Path: fFile, Code: core.EACCES}},
			absent: []string{"broken"}, warn: [][]string{readFailed(fFile, core.EACCES)}},
		{name: "S11 EACCES reading SKILL.md", build: writeBroken,
			faults: []corpus.Fault{{Op: "readFile", Path: fFile, Code: core.EACCES}},
			absent: []string{"broken"}, warn: [][]string{readFailed(fFile, core.EACCES)}},
		{name: "S11 EACCES following a skill link", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.WriteFile("/store/broken/SKILL.md", skillMD("broken", "linked")))
			must(t, b.Symlink("/store/broken", fBad))
		}, faults: []corpus.Fault{{Op: "stat", Path: fBad, Code: core.EACCES}},
			absent: []string{"broken"}, warn: [][]string{readFailed(fFile, core.EACCES)}},
		{name: "S11 EACCES following a SKILL.md link", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.WriteFile("/store/broken.md", skillMD("broken", "linked")))
			must(t, b.Symlink("/store/broken.md", fFile))
		}, faults: []corpus.Fault{{Op: "stat", Path: fFile, Code: core.EACCES}},
			absent: []string{"broken"}, warn: [][]string{readFailed(fFile, core.EACCES)}},
		{name: "S12 EACCES listing a skills root", build: writeBroken,
			faults:   []corpus.Fault{{Op: "readDir", Path: fRoot, Code: core.EACCES}},
			rootLost: true, absent: []string{"broken", "aaa-good", "zzz-good"},
			warn: [][]string{{"[Claude Code] ", rootFailed(fRoot, core.EACCES)[0]}}},
		{name: "S12 EIO listing a skills root", build: writeBroken,
			faults:   []corpus.Fault{{Op: "readDir", Path: fRoot, Code: core.EIO}},
			rootLost: true, warn: [][]string{rootFailed(fRoot, core.EIO)}},
		{name: "S11 EIO reading SKILL.md", build: writeBroken,
			faults: []corpus.Fault{{Op: "readFile", Path: fFile, Code: core.EIO}},
			absent: []string{"broken"}, warn: [][]string{readFailed(fFile, core.EIO)}},
		{name: "S20 EACCES reading the plugin registry", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.WriteFile(fHome+"/.claude/plugins/installed_plugins.json",
				[]byte(`{"plugins":{"p@m":[{"scope":"user","installPath":"/plug/p"}]}}`)))
			must(t, b.WriteFile("/plug/p/skills/broken/SKILL.md", skillMD("broken", "plugin")))
		}, faults: []corpus.Fault{{Op: "readFile", Path: fHome + "/.claude/plugins/installed_plugins.json", Code: core.EACCES}},
			absent: []string{"p:broken"},
			warn:   [][]string{{"[Claude Code plugins] Failed to read plugin registry: " + fHome + "/.claude/plugins/installed_plugins.json (EACCES)"}}},

		// EACCES on disk: only a non-root user can be refused.
		{name: "S11 EACCES on disk: skill folder mode 000", build: writeBroken, only: "osfs", why: "chmod",
			skipRoot: rootOnly, setup: func(t *testing.T, e *faultEnv) { chmod(t, e, fBad, 0) },
			absent: []string{"broken"}, warn: [][]string{readFailed(fFile, core.EACCES)}},
		{name: "S11 EACCES on disk: SKILL.md mode 000", build: writeBroken, only: "osfs", why: "chmod",
			skipRoot: rootOnly, setup: func(t *testing.T, e *faultEnv) { chmod(t, e, fFile, 0) },
			absent: []string{"broken"}, warn: [][]string{readFailed(fFile, core.EACCES)}},
		{name: "S12 EACCES on disk: root mode 000", build: writeBroken, only: "osfs", why: "chmod",
			skipRoot: rootOnly, setup: func(t *testing.T, e *faultEnv) { chmod(t, e, fRoot, 0) },
			rootLost: true, warn: [][]string{rootFailed(fRoot, core.EACCES)}},

		// ENOTDIR.
		{name: "S12 ENOTDIR: a file where a skills root should be", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.WriteFile(fHome+"/.agent/skills", []byte("not a folder")))
		}, warn: [][]string{{"[Agents] ", rootFailed(fHome+"/.agent/skills", core.ENOTDIR)[0]}}},
		{name: "S12 ENOTDIR: a file where a root's parent should be", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.WriteFile(fHome+"/.codex", []byte("not a folder")))
		}, warn: [][]string{rootFailed(fHome+"/.codex/skills", core.ENOTDIR)}},
		{name: "S11 ENOTDIR: a file where the skill folder should be", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.WriteFile(fBad, skillMD("broken", "a file, not a folder")))
		}, absent: []string{"broken"}, silent: []string{fBad}},
		{name: "S11 ENOTDIR: the skill folder became a file (injected)", build: writeBroken,
			faults: []corpus.Fault{{Op: "lstat", Path: fFile, Code: core.ENOTDIR}, {Op: "readFile", Path: fFile, Code: core.ENOTDIR}},
			absent: []string{"broken"}, silent: []string{fBad}},
		{name: "S11 a link to a file where the skill folder should be", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.WriteFile("/store/file.md", skillMD("broken", "a file")))
			must(t, b.Symlink("/store/file.md", fBad))
		}, absent: []string{"broken"}, silent: []string{fBad}},
		{name: "S11 SKILL.md is a folder", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.Mkdir(fFile))
		}, absent: []string{"broken"}, silent: []string{fBad}},

		// ELOOP.
		{name: "S11 ELOOP: skill folder links to itself", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.Symlink("broken", fBad))
		}, silent: []string{fBad}},
		{name: "S11 ELOOP: two links pointing at each other", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.Symlink("broken2", fBad))
			must(t, b.Symlink("broken", fBad+"2"))
		}, silent: []string{fBad}},
		{name: "S11 ELOOP: SKILL.md links to itself", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.Symlink("SKILL.md", fFile))
		}, silent: []string{fBad}},
		{name: "S11 ELOOP: a chain of 41 links", build: linkChain(41),
			absent: []string{"chained"}, silent: []string{fBad}},
		{name: "S11 a chain of 40 links is followed", build: linkChain(40),
			loaded: map[string]string{"chained": "at the end of a chain"}},
		{name: "S12 ELOOP: a skills root links to itself", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.Symlink("skills", fHome+"/.agent/skills"))
		}, warn: [][]string{rootFailed(fHome+"/.agent/skills", core.ELOOP)}},
		{name: "S11 ELOOP (injected) on a skill link", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.WriteFile("/store/broken/SKILL.md", skillMD("broken", "linked")))
			must(t, b.Symlink("/store/broken", fBad))
		}, faults: []corpus.Fault{{Op: "stat", Path: fBad, Code: core.ELOOP}},
			absent: []string{"broken"}, silent: []string{fBad}},

		// Dangling links.
		{name: "S11 dangling skill folder link", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.Symlink("/nowhere/broken", fBad))
		}, silent: []string{fBad}},
		{name: "S11 dangling SKILL.md link", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.Symlink("gone.md", fFile))
		}, absent: []string{"broken"}, silent: []string{fBad}},
		{name: "S12 dangling skills root link: missing, silently", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.Symlink("/nowhere/skills", fHome+"/.agent/skills"))
		}, silent: []string{fHome + "/.agent/skills"}},

		// Removed between two calls.
		{name: "S11 skill folder removed between listing and reading", build: writeBroken,
			setup: func(t *testing.T, e *faultEnv) {
				e.spy.after = func(op, p string) {
					if op == "readDir" && p == fRoot {
						e.remove(t, fBad)
					}
				}
			}, absent: []string{"broken"}, silent: []string{fBad}},
		{name: "S11 linked skill folder removed between listing and following", build: func(t *testing.T, b fsadaptertest.Builder) {
			must(t, b.WriteFile("/store/broken/SKILL.md", skillMD("broken", "linked")))
			must(t, b.Symlink("/store/broken", fBad))
		}, only: "osfs", why: "memfs has no remove, and its links resolve inside memfs, out of the wrapper's reach",
			setup: func(t *testing.T, e *faultEnv) {
				e.spy.after = func(op, p string) {
					if op == "readDir" && p == fRoot {
						e.remove(t, "/store/broken")
					}
				}
			}, absent: []string{"broken"}, silent: []string{fBad}},
		// Discovery opens a plain SKILL.md without looking at it first
		// (scan.go), so there is no window between a look and the read: a
		// SKILL.md gone by then is no skill, silently, as one never there.
		{name: "S11 SKILL.md removed between the listing and the read", build: writeBroken,
			setup: func(t *testing.T, e *faultEnv) {
				e.spy.after = func(op, p string) {
					if op == "readDir" && p == fRoot {
						e.remove(t, fFile)
					}
				}
			}, absent: []string{"broken"}, silent: []string{fFile}},
		{name: "S12 skills root removed after the ancestors walk", build: writeBroken,
			setup: func(t *testing.T, e *faultEnv) {
				e.spy.after = func(op, p string) {
					if op == "readDir" && p == fHome+"/.xcsh/agent/skills" {
						e.remove(t, fRoot)
					}
				}
			}, rootLost: true, silent: []string{fRoot}},
	})
}

// TestDiscover_registryFIFO: a plugin registry that is a FIFO must not
// block discovery (S20 reads it without checking its type).
func TestDiscover_registryFIFO(t *testing.T) {
	t.Parallel()
	e := newOSEnv(t)
	buildNeighbours(t, e.b)
	reg := e.host(fHome + "/.claude/plugins/installed_plugins.json")
	must(t, os.MkdirAll(filepath.Dir(reg), 0o755))
	must(t, syscall.Mkfifo(reg, 0o644))
	done := make(chan *core.Result, 1)
	go func() {
		res, _ := core.Discover(context.Background(), e.base, fCwd, fHome, core.DefaultOptions())
		done <- res
	}()
	select {
	case res := <-done:
		checkFaultResult(t, faultCase{warn: [][]string{{"installed_plugins.json"}}}, res)
	case <-time.After(30 * time.Second): // a hang guard, not a time bound: discovery takes milliseconds
		t.Errorf("Discover blocked for 30 s on a FIFO plugin registry")
		w, err := os.OpenFile(reg, os.O_WRONLY, 0) // release it
		must(t, err)
		w.Close()
		<-done
	}
}

// panicFS panics on every call under one path: a bug in a host's
// filesystem adapter.
type panicFS struct {
	core.FS
	under string
}

func (p panicFS) ReadDir(path string) ([]core.DirEntry, error) {
	if strings.HasPrefix(path, p.under) {
		panic("adapter bug in ReadDir " + path)
	}
	return p.FS.ReadDir(path)
}

// TestCall_panickingFS: a panic inside a call (here from the filesystem)
// comes back as an INTERNAL error reply, never as a crash, and the next
// call on the same filesystem works (wasm/ABI.md: panics never
// trap).
func TestCall_panickingFS(t *testing.T) {
	t.Parallel()
	m := memfs.New()
	buildNeighbours(t, m)
	fsys := panicFS{FS: m, under: fRoot}
	req := []byte(`{"op":"discover","cwd":"` + fCwd + `","home":"` + fHome + `"}`)
	got := string(wire.Call(fsys, req))
	if !strings.HasPrefix(got, `{"error":{"code":"INTERNAL","message":"internal error: adapter bug in ReadDir `+fRoot) {
		t.Fatalf("Call with a panicking FS = %s, want an INTERNAL error", got)
	}
	want := string(wire.Call(m, req))
	if again := string(wire.Call(fsys, []byte(`{"op":"scanDir","dir":"`+fOther+`"}`))); !strings.Contains(again, `"other-good"`) {
		t.Fatalf("the next call = %s", again)
	}
	if !strings.Contains(want, `"zzz-good"`) {
		t.Fatalf("discover without the panic = %s", want)
	}
}

// TestDiscover_registryTooLarge: a plugin registry over 16 MiB is not read
// whole; it warns with EFBIG and the other providers' skills still load.
func TestDiscover_registryTooLarge(t *testing.T) {
	t.Parallel()
	m := memfs.New()
	buildNeighbours(t, m)
	reg := fHome + "/.claude/plugins/installed_plugins.json"
	must(t, m.WriteFile(reg, append([]byte(`{"version":2,"plugins":{}}`), bytes.Repeat([]byte(" "), 16<<20)...)))
	res, err := core.Discover(context.Background(), m, fCwd, fHome, core.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	checkFaultResult(t, faultCase{warn: [][]string{{"", "[Claude Code plugins] Failed to read plugin registry: " + reg + " (EFBIG)"}}}, res)
}

// TestPOSIXCode_unknownCodes: a code outside the set every host carries
// (wasm/ABI.md's errno table) reads as EIO, so a warning quoting it is the
// same natively and through the module (S42).
func TestPOSIXCode_unknownCodes(t *testing.T) {
	for code, want := range map[string]string{
		"ENOENT": "ENOENT", "ENAMETOOLONG": "ENAMETOOLONG", "EPERM": "EPERM",
		"EBUSY": "EIO", "": "EIO", "enoent": "EIO",
	} {
		if got := core.POSIXCode(&core.PathError{Op: "stat", Path: "/x", Code: code}); got != want {
			t.Errorf("POSIXCode(%q) = %q, want %q", code, got, want)
		}
	}
}

// asPathError is an error type whose As method (not its chain) yields a
// *PathError, as errors.As allows.
type asPathError struct{ code string }

func (e asPathError) Error() string { return "as " + e.code }

func (e asPathError) As(target any) bool {
	if p, ok := target.(**core.PathError); ok {
		*p = &core.PathError{Op: "stat", Path: "/as", Code: e.code}
		return true
	}
	return false
}

// TestPOSIXCode_wrapped: POSIXCode finds a *PathError wherever errors.As
// would (wrapped by %w, in a Join, behind an As method), with the code
// errors.As's gives; the engine walks the chain itself rather than through
// reflection, and the codes in warnings stay the same natively
// and in wasm (S42).
func TestPOSIXCode_wrapped(t *testing.T) {
	enoent := &core.PathError{Op: "readDir", Path: "/r", Code: core.ENOENT}
	eacces := &core.PathError{Op: "lstat", Path: "/s", Code: core.EACCES}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"bare", enoent},
		{"wrapped twice", fmt.Errorf("scan: %w", fmt.Errorf("list: %w", enoent))},
		{"joined, the first path error in order", errors.Join(errors.New("other"), eacces, enoent)},
		{"joined inside a wrap", fmt.Errorf("x: %w", errors.Join(errors.New("a"), fmt.Errorf("b: %w", eacces)))},
		{"an As method", fmt.Errorf("w: %w", asPathError{core.ELOOP})},
		{"no path error", fmt.Errorf("w: %w", errors.New("plain"))},
		{"an unknown code", fmt.Errorf("w: %w", &core.PathError{Op: "stat", Path: "/x", Code: "EBUSY"})},
	} {
		want := core.EIO
		var pe *core.PathError
		if errors.As(tc.err, &pe) && pe.Code != "EBUSY" {
			want = pe.Code
		}
		if got := core.POSIXCode(tc.err); got != want {
			t.Errorf("%s: POSIXCode = %q, want %q (errors.As)", tc.name, got, want)
		}
	}
}
