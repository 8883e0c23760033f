package core_test

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/fsadapter/osfs"
	"github.com/skilldex/skilldex/wire"
)

// The S43 boundary in validate (S40): a SKILL.md that links outside its
// skill is reported with discovery's message and code link-outside, and
// never opened, over memfs and over the OS with real symlinks.

const secretText = "---\nname: TOP-SECRET-TOKEN-12345\ndescription: API_KEY=hunter2\n---\nsecret body line\n"

// linkTree is a skills root /w/skills (with the files outside it) as
// entries: a path and either contents or, after "-> ", a link target.
var linkTree = map[string]string{
	"/secret/env.md": secretText,
	// outside: SKILL.md links to a file outside the folder and the root
	"/w/skills/leak/SKILL.md": "-> /secret/env.md",
	// outside, relative: up and out of the root
	"/w/skills/up/SKILL.md": "-> ../../../secret/env.md",
	// inside the root: a sibling folder of notes (S43: the root is a boundary)
	"/w/skills/notes/sib.md":   "---\nname: sib\ndescription: Linked from the root.\n---\nBody.\n",
	"/w/skills/notes/x.txt":    "not a skill folder",
	"/w/skills/sib/SKILL.md":   "-> ../notes/sib.md",
	"/w/skills/in/guide/s.md":  "---\nname: in\ndescription: Linked inside its folder.\n---\nBody.\n",
	"/w/skills/in/SKILL.md":    "-> guide/s.md",
	"/w/skills/plain/SKILL.md": "---\nname: plain\ndescription: A plain file.\n---\nBody.\n",
	// a linked folder (S11, followed): its SKILL.md is checked against
	// the folder's realpath, so a link from it to beside the folder is out
	"/w/skills/lf":           "-> /store/lf",
	"/store/lf/SKILL.md":     "---\nname: lf\ndescription: A linked folder.\n---\nBody.\n",
	"/w/skills/lf-out":       "-> /store/lf-out",
	"/store/lf-out/SKILL.md": "-> ../lf-out.md",
	"/store/lf-out.md":       secretText,
}

// linkOutside maps each skill folder of linkTree whose SKILL.md leads
// outside its folder and root to that realpath.
var linkOutside = map[string]string{
	"/w/skills/leak":   "/secret/env.md",
	"/w/skills/up":     "/secret/env.md",
	"/w/skills/lf-out": "/store/lf-out.md",
}

// linkFS builds linkTree over memfs and over the OS (t.TempDir, served
// rooted there so the paths are the same), each wrapped to log reads.
func linkFS(t *testing.T) map[string]*readLogFS {
	t.Helper()
	mem := memfs.New()
	dir := t.TempDir()
	paths := make([]string, 0, len(linkTree))
	for p := range linkTree {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		c := linkTree[p]
		host := filepath.Join(dir, filepath.FromSlash(p))
		must(t, os.MkdirAll(filepath.Dir(host), 0o755))
		if target, ok := strings.CutPrefix(c, "-> "); ok {
			must(t, mem.Symlink(target, p))
			if strings.HasPrefix(target, "/") {
				target = filepath.Join(dir, filepath.FromSlash(target))
			}
			must(t, os.Symlink(target, host))
			continue
		}
		must(t, mem.WriteFile(p, []byte(c)))
		must(t, os.WriteFile(host, []byte(c), 0o644))
	}
	ofs, err := osfs.Dir(dir)
	must(t, err)
	return map[string]*readLogFS{"memfs": {FS: mem}, "osfs": {FS: ofs}}
}

// TestValidate_linkOutside: validate <skill> and validate <root> (S51)
// report a SKILL.md linking outside its skill as link-outside, with the
// message of discovery's S43 warning, exactly for the skills ScanDir of
// the same root warns about; the target is never read and nothing of it
// reaches the reply. Links inside the folder or the root are read.
func TestValidate_linkOutside(t *testing.T) {
	t.Parallel()
	for name, fsys := range linkFS(t) {
		t.Run(name, func(t *testing.T) {
			// Discovery's verdict on the same root (S28: folder and root).
			scan, err := core.ScanDir(context.Background(), fsys.FS, "/w/skills", "")
			must(t, err)
			scanWarn := map[string]string{}
			for _, w := range scan.Warnings {
				scanWarn[path.Dir(w.SkillPath)] = w.Message
			}
			loaded := map[string]bool{}
			for _, s := range scan.Skills {
				loaded[s.BaseDir] = true
			}

			fsys.reads = nil
			root, err := core.Validate(context.Background(), fsys, "/w/skills")
			must(t, err)
			byDir := map[string]core.Validation{}
			for _, v := range root.Skills {
				byDir[v.Dir] = v
			}
			for _, dir := range []string{"/w/skills/leak", "/w/skills/up", "/w/skills/sib", "/w/skills/in",
				"/w/skills/plain", "/w/skills/lf", "/w/skills/lf-out"} {
				one, err := core.Validate(context.Background(), fsys, dir)
				must(t, err)
				for label, v := range map[string]core.Validation{"skill": *one, "root": byDir[dir]} {
					if v.Dir != dir {
						t.Errorf("%s %s: validated as %q", label, dir, v.Dir)
						continue
					}
					real, outside := linkOutside[dir]
					var got []string
					for _, d := range v.Diagnostics {
						got = append(got, d.Code)
					}
					if !outside {
						if len(got) != 0 || !loaded[dir] {
							t.Errorf("%s %s: %+v (loaded by scanDir: %v)", label, dir, v.Diagnostics, loaded[dir])
						}
						continue
					}
					want := dir + "/SKILL.md links outside its skill (" + real + "); link the skill folder instead"
					if len(v.Diagnostics) != 1 || v.Diagnostics[0].Code != core.DiagLinkOutside ||
						v.Diagnostics[0].Severity != core.SeverityError || v.Diagnostics[0].Message != want {
						t.Errorf("%s %s: %+v\nwant link-outside %q", label, dir, v.Diagnostics, want)
					}
					if scanWarn[dir] != want || loaded[dir] {
						t.Errorf("%s %s: scanDir says %q (loaded %v), validate %q", label, dir, scanWarn[dir], loaded[dir], want)
					}
				}
			}
			reply := string(wire.AppendJSON(nil, root))
			for _, secret := range []string{"TOP-SECRET", "hunter2", "secret body"} {
				if strings.Contains(reply, secret) {
					t.Errorf("the reply quotes the target: %s", reply)
				}
			}
			for _, p := range fsys.reads {
				if strings.HasPrefix(p, "/secret") || strings.HasSuffix(p, "lf-out.md") ||
					strings.Contains(p, "/leak/") || strings.Contains(p, "/up/") || strings.Contains(p, "lf-out/") {
					t.Errorf("read %s", p)
				}
			}
		})
	}
}

// swapFS is an FS whose first Lstat of one path answers "a regular file"
// while the tree holds a link there: the SKILL.md swapped for a link
// after validate's check and before its read.
type swapFS struct {
	core.FS
	path    string
	checked bool
}

func (s *swapFS) Lstat(p string) (core.FileType, error) {
	if p == s.path && !s.checked {
		s.checked = true
		return core.TypeFile, nil
	}
	return s.FS.Lstat(p)
}

// TestValidate_swappedForLink: the read checks the file it opens (S44):
// a SKILL.md that is a link by the time it is read, to a file outside the
// folder, is refused (EXDEV) and its bytes are never quoted.
func TestValidate_swappedForLink(t *testing.T) {
	t.Parallel()
	for name, fsys := range linkFS(t) {
		t.Run(name, func(t *testing.T) {
			sw := &swapFS{FS: fsys.FS, path: "/w/skills/leak/SKILL.md"}
			v, err := core.Validate(context.Background(), sw, "/w/skills/leak")
			must(t, err)
			want := "Failed to read skill file: /w/skills/leak/SKILL.md (EXDEV)"
			if len(v.Diagnostics) != 1 || v.Diagnostics[0].Code != core.DiagUnreadable || v.Diagnostics[0].Message != want {
				t.Errorf("%+v\nwant unreadable %q", v.Diagnostics, want)
			}
			if j := string(wire.AppendJSON(nil, v)); strings.Contains(j, "TOP-SECRET") {
				t.Errorf("the reply quotes the target: %s", j)
			}
		})
	}
}

// ReadFileWithin is the inner FS's (osfs: its check of the opened
// descriptor), not one made through the lying Lstat.
func (s *swapFS) ReadFileWithin(within, p string, buf []byte) (int, int64, error) {
	return core.ReadFileWithin(s.FS, within, p, buf)
}
