package core

import (
	"context"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Resource is a file read through a skill:// URL (SPEC section 6).
type Resource struct {
	URL         string // the URL as given
	Content     string // the file's text, decoded by S4 ([DecodeText])
	ContentType string // "text/markdown" for a .md file (any case), else "text/plain"
	Size        int    // len(Content): its size in UTF-8 bytes
	SourcePath  string // the cleaned absolute path of the file (not its realpath)
}

// Resolve reads the resource a skill:// URL names (SPEC S29 to S32):
//
//	skill://<name>         the skill's SKILL.md
//	skill://<name>/<path>  <path> relative to the skill's baseDir
//
// The name is the text up to the first "/", "?" or "#"; the path runs to
// the first "?" or "#" (query and fragment are ignored); both are
// percent-decoded once. Failures are an [*Error] whose code and message are
// those of the SPEC, checked in this order:
//
//   - INVALID_URL: no "skill://" scheme (case-insensitive), malformed
//     percent-encoding, or invalid UTF-8 once decoded;
//   - MISSING_NAME: an empty name;
//   - UNKNOWN_SKILL: no skill of that exact name (the S50 message: close
//     names, then at most 20 names in S15 order, or "none");
//   - INVALID_URL: a NUL byte in the path;
//   - ABSOLUTE_PATH: the path starts with "/" or "\" or a drive letter ("C:");
//   - PATH_TRAVERSAL: a ".." segment, splitting on "/" and "\". A segment
//     that turns into ".." when percent-decoded again (double encoding,
//     "%252e%252e") counts too, so a host that decodes once more can never
//     be led out of the skill;
//   - PATH_ESCAPE: the target's realpath is not inside the realpath of the
//     skill's baseDir (a symlink pointing out of the skill). When the target
//     does not exist, its deepest existing ancestor is checked instead, so
//     a link out of the skill is refused whether or not the file behind it
//     exists. This applies to every target, SKILL.md included;
//   - NOT_FOUND: the target is missing or not a regular file: "File not
//     found: <path>" with the cleaned absolute path; a directory is "<path>
//     is a directory; list a skill's files with listFiles" (S56). A target that
//     exists but cannot be read (EACCES, EIO...) is also NOT_FOUND, with the
//     message "Failed to read file: <path> (<CODE>)".
//
// A "\" in the path is a separator like "/", on every host: the result never
// depends on whether the host's filesystem treats it so. When several skills
// share a name (a hand-built list), the first one is used.
func Resolve(ctx context.Context, fsys FS, url string, skills []Skill) (*Resource, error) {
	if err := canceled(ctx, "resolve"); err != nil {
		return nil, err
	}
	if len(url) > MaxURLBytes { // S45, before any work: decoding is linear, the checks below are not
		return nil, errorf(CodeInvalidURL, "Invalid URL: "+firstRunes(url, 200)+"…")
	}
	name, rel, perr := parseSkillURL(url)
	if perr != nil {
		return nil, perr
	}
	s, ferr := findSkill(name, skills)
	if ferr != nil {
		return nil, ferr
	}
	base := skillBaseDir(s)
	target := s.FilePath
	if rel != "" {
		if strings.IndexByte(rel, 0) >= 0 {
			return nil, invalidURL(url)
		}
		if isAbsoluteRel(rel) {
			return nil, errorf(CodeAbsolutePath, "Absolute paths are not allowed in skill:// URLs")
		}
		if hasDotDot(rel) {
			return nil, errorf(CodePathTraversal, "Path traversal (..) is not allowed in skill:// URLs")
		}
		target = path.Join(base, strings.ReplaceAll(rel, `\`, "/"))
	}
	var real, within string
	if target == s.FilePath { // S44: the SKILL.md discovery loaded, under S43's boundaries
		var err error
		if within, err = skillFileWithin(fsys, s); err != nil {
			if _, ok := err.(*Error); ok {
				return nil, err
			}
			return nil, notFound(target, POSIXCode(err))
		}
		if real, err = fsys.Realpath(target); err != nil {
			return nil, notFound(target, POSIXCode(err))
		}
	} else {
		var err error
		if real, err = containedRealpath(fsys, base, target); err != nil {
			return nil, err
		}
		if within, err = fsys.Realpath(base); err != nil {
			return nil, notFound(target, POSIXCode(err))
		}
	}
	typ, statErr := fsys.Stat(real)
	if statErr != nil {
		return nil, notFound(target, POSIXCode(statErr))
	}
	if typ == TypeDir { // S56
		return nil, errorf(CodeNotFound, target+" is a directory; list a skill's files with listFiles")
	}
	if typ != TypeFile {
		return nil, notFound(target, ENOENT)
	}
	data, readErr := readFileWithin(fsys, within, real, MaxResolveBytes)
	if readErr != nil {
		return nil, readError(target, readErr, "8 MiB")
	}
	content := DecodeText(data)
	ct := "text/plain"
	if strings.EqualFold(path.Ext(target), ".md") {
		ct = "text/markdown"
	}
	return &Resource{URL: url, Content: content, ContentType: ct, Size: len(content), SourcePath: target}, nil
}

func invalidURL(url string) *Error { return errorf(CodeInvalidURL, "Invalid URL: "+url) }

// Bounds of S45.
const (
	// MaxURLBytes: a longer skill:// URL is INVALID_URL, quoted to its
	// first 200 characters.
	MaxURLBytes = 4096
	// MaxResolveBytes: a larger resolve target is TOO_LARGE.
	MaxResolveBytes = 8 << 20
	// MaxExpandBytes: a larger SKILL.md to expand is TOO_LARGE.
	MaxExpandBytes = 1 << 20
)

// firstRunes returns the first n characters (code points; a byte of
// invalid UTF-8 counts as one) of s.
func firstRunes(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// readError turns the failure of a bounded, contained read of target into
// the S31/S44/S45 error: TOO_LARGE naming the size and the limit,
// PATH_ESCAPE for a file opened outside its boundary, else NOT_FOUND.
func readError(target string, err error, limit string) *Error {
	if tl, ok := err.(*errTooLarge); ok {
		return errorf(CodeTooLarge, "File too large: "+target+" ("+strconv.FormatInt(tl.size, 10)+" bytes; the limit is "+limit+")")
	}
	if POSIXCode(err) == EXDEV {
		return errorf(CodePathEscape, "Path traversal is not allowed")
	}
	return notFound(target, POSIXCode(err))
}

// parseSkillURL splits a skill:// URL into its decoded name and path (S29).
func parseSkillURL(url string) (name, rel string, err *Error) {
	if len(url) < len("skill://") || !strings.EqualFold(url[:5], "skill") || url[5:8] != "://" {
		return "", "", invalidURL(url)
	}
	rest := url[8:]
	rawName, rawPath := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rawName = rest[:i]
		if rest[i] == '/' {
			rawPath = rest[i+1:]
			if j := strings.IndexAny(rawPath, "?#"); j >= 0 {
				rawPath = rawPath[:j]
			}
		}
	}
	var ok1, ok2 bool
	name, ok1 = percentDecode(rawName)
	rel, ok2 = percentDecode(rawPath)
	if !ok1 || !ok2 || !utf8.ValidString(name) || !utf8.ValidString(rel) {
		return "", "", invalidURL(url)
	}
	if name == "" {
		return "", "", errorf(CodeMissingName, "skill:// URL requires a skill name: skill://<name>")
	}
	return name, rel, nil
}

// percentDecode decodes %XX escapes (either case of hex digit) and nothing
// else: "+" stays "+". ok is false for a "%" not followed by two hex digits.
func percentDecode(s string) (string, bool) {
	n := strings.Count(s, "%")
	if n == 0 {
		return s, true
	}
	b := make([]byte, 0, max(len(s)-2*n, 0))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			b = append(b, c)
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return "", false
		}
		b = append(b, hi<<4|lo)
		i += 2
	}
	return string(b), true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// findSkill returns the first skill named exactly name (S30).
func findSkill(name string, skills []Skill) (*Skill, *Error) {
	for i := range skills {
		if skills[i].Name == name {
			return &skills[i], nil
		}
	}
	return nil, unknownSkill(name, skills)
}

// skillBaseDir is the skill's BaseDir, or the directory of its FilePath
// when a hand-built skill leaves BaseDir empty.
func skillBaseDir(s *Skill) string {
	if s.BaseDir != "" {
		return path.Clean(s.BaseDir)
	}
	return path.Dir(s.FilePath)
}

// isAbsoluteRel reports whether a decoded skill:// path is absolute (S31):
// it starts with "/" or "\" (which covers UNC paths) or a drive letter.
func isAbsoluteRel(rel string) bool {
	if rel[0] == '/' || rel[0] == '\\' {
		return true
	}
	return len(rel) >= 2 && rel[1] == ':' && ('a' <= rel[0]|0x20 && rel[0]|0x20 <= 'z')
}

// hasDotDot reports whether a decoded skill:// path has a ".." segment
// (S31), splitting on "/" and "\", or a segment that becomes one when
// percent-decoded again (up to four more rounds).
func hasDotDot(rel string) bool {
	return dotDotWithin(rel, 0)
}

func dotDotWithin(s string, round int) bool {
	for _, seg := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return true
		}
		if round < 4 && strings.IndexByte(seg, '%') >= 0 {
			if d, ok := percentDecode(seg); ok && d != seg && dotDotWithin(d, round+1) {
				return true
			}
		}
	}
	return false
}

// pathWithin reports whether p is dir or lies below it.
func pathWithin(p, dir string) bool {
	return p == dir || under(p, dir)
}

// containedRealpath returns the realpath of target after checking that it
// lies inside the realpath of base (PATH_ESCAPE otherwise). When target has
// no realpath (it is missing, or a link loop), its deepest ancestor that
// has one is checked, and the error is NOT_FOUND unless that ancestor
// escapes.
func containedRealpath(fsys FS, base, target string) (string, error) {
	realBase, err := fsys.Realpath(base)
	if err != nil {
		return "", notFound(target, POSIXCode(err))
	}
	real, err := fsys.Realpath(target)
	if err == nil {
		if !pathWithin(real, realBase) {
			return "", errorf(CodePathEscape, "Path traversal is not allowed")
		}
		return real, nil
	}
	for p := path.Dir(target); under(p, base); p = path.Dir(p) {
		if r, e := fsys.Realpath(p); e == nil {
			if !pathWithin(r, realBase) {
				return "", errorf(CodePathEscape, "Path traversal is not allowed")
			}
			break
		}
	}
	return "", notFound(target, POSIXCode(err))
}

// notFound is the S31 NOT_FOUND error for target, given the code of the
// failure. A missing file (or a directory, or a link loop) is "File not
// found"; a file that exists but cannot be read names the code.
func notFound(target, code string) *Error {
	switch code {
	case ENOENT, ENOTDIR, EISDIR, ELOOP:
		return errorf(CodeNotFound, "File not found: "+target)
	}
	return errorf(CodeNotFound, "Failed to read file: "+target+" ("+code+")")
}

// FileList is the listing of one skill's directory (SPEC S33).
type FileList struct {
	Name      string
	BaseDir   string
	Files     []string // slash paths relative to BaseDir, in byte order
	Truncated bool     // more than MaxListFiles files: the walk stopped (S45)
}

// maxListDepth bounds how deep [ListFiles] looks: a file is listed when its
// relative path has at most this many segments (S33).
const maxListDepth = 8

// MaxListFiles bounds what [ListFiles] returns (S45).
const MaxListFiles = 10000

// ListFiles lists the files of the skill named name (SPEC S33), so a model
// can find the references a SKILL.md mentions. Paths are relative to the
// skill's baseDir, slash-separated and sorted in byte order; SKILL.md is
// among them. The walk:
//
//   - lists a file whose relative path has at most 8 segments
//     ("a/b/c/d/e/f/g/h.md" is the deepest);
//   - skips every entry whose name starts with "." (and what is below it),
//     and names that no skill:// URL can address: names holding "\" (a
//     separator in skill:// paths) or invalid UTF-8;
//   - follows a symlink only when its realpath lies inside the realpath of
//     baseDir, exactly the targets [Resolve] accepts, and the top-level
//     SKILL.md when [Resolve] would serve it (S44: a link allowed by S43);
//     a broken link, and anything that is neither a file nor a directory,
//     is skipped;
//   - enters every directory once, by realpath (S45): a second way to the
//     same directory (a loop, or many links to one place) is not walked
//     again, so the work is linear in the size of the skill;
//   - stops after MaxListFiles (10000) files, in walk order (names sorted
//     per directory), and sets Truncated;
//   - skips subdirectories it cannot read, silently.
//
// Errors: an empty name is MISSING_NAME, an unknown one UNKNOWN_SKILL (the
// S50 message), and a baseDir that cannot be listed NOT_FOUND.
func ListFiles(ctx context.Context, fsys FS, name string, skills []Skill) (*FileList, error) {
	if err := canceled(ctx, "listFiles"); err != nil {
		return nil, err
	}
	if name == "" {
		return nil, errorf(CodeMissingName, "listFiles requires a skill name")
	}
	s, e := findSkill(name, skills)
	if e != nil {
		return nil, e
	}
	base := skillBaseDir(s)
	w, err := walkSkillDir(ctx, fsys, base, s)
	if err != nil {
		return nil, notFound(base, POSIXCode(err))
	}
	if err := canceled(ctx, "listFiles"); err != nil {
		return nil, err
	}
	return &FileList{Name: s.Name, BaseDir: base, Files: w.files, Truncated: w.truncated}, nil
}

// walkSkillDir lists the files below dir as [ListFiles] describes. It fails
// only when dir itself has no realpath or cannot be listed.
func walkSkillDir(ctx context.Context, fsys FS, dir string, s *Skill) (*skillWalker, error) {
	realBase, err := fsys.Realpath(dir)
	if err != nil {
		return nil, err
	}
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	w := &skillWalker{fsys: fsys, realBase: realBase, skill: s, files: []string{}, seen: map[string]bool{realBase: true}}
	w.walk(ctx, dir, "", realBase, 1, entries)
	sortFunc(w.files, strings.Compare)
	return w, nil
}

type skillWalker struct {
	fsys      FS
	realBase  string
	skill     *Skill
	seen      map[string]bool // realpaths of the directories entered
	files     []string
	truncated bool
}

// walk lists dir, whose entries are given, whose path relative to the
// skill is rel ("" or ending in "/"), whose realpath is real, and whose
// files are at the given depth.
func (w *skillWalker) walk(ctx context.Context, dir, rel, real string, depth int, entries []DirEntry) {
	sortFunc(entries, func(a, b DirEntry) int { return strings.Compare(a.Name, b.Name) })
	for _, e := range entries {
		if w.truncated || ctx.Err() != nil {
			return
		}
		if e.Name == "" || e.Name[0] == '.' || strings.ContainsAny(e.Name, `\/`) || !utf8.ValidString(e.Name) {
			continue
		}
		p := dir + "/" + e.Name
		if dir == "/" {
			p = "/" + e.Name
		}
		typ, childReal := e.Type, real+"/"+e.Name
		if real == "/" {
			childReal = "/" + e.Name
		}
		if typ == TypeSymlink {
			r, err := w.fsys.Realpath(p)
			if err != nil {
				continue
			}
			outside := !pathWithin(r, w.realBase)
			if outside {
				// S44: the SKILL.md discovery loaded is listed when its
				// link is one S43 allows.
				if w.skill == nil || rel != "" || e.Name != "SKILL.md" || p != w.skill.FilePath {
					continue
				}
				if _, err := skillFileWithin(w.fsys, w.skill); err != nil {
					continue
				}
			}
			t, err := w.fsys.Stat(p)
			if err != nil || outside && t != TypeFile {
				// Only the file itself: a SKILL.md swapped for a link to a
				// directory after discovery is not walked (S33; found by
				// FuzzListFiles).
				continue
			}
			typ, childReal = t, r
		}
		switch typ {
		case TypeFile:
			if len(w.files) == MaxListFiles {
				w.truncated = true
				return
			}
			w.files = append(w.files, rel+e.Name)
		case TypeDir:
			if depth >= maxListDepth || w.seen[childReal] {
				continue
			}
			w.seen[childReal] = true
			sub, err := w.fsys.ReadDir(p)
			if err != nil {
				continue
			}
			w.walk(ctx, p, rel+e.Name+"/", childReal, depth+1, sub)
		}
	}
}
