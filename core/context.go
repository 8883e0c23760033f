package core

import (
	"context"
	"path"
	"strings"
)

// ContextFile is one XCSH.md context file (SPEC S38, S39).
type ContextFile struct {
	Path    string
	Content string // decoded by S4 ([DecodeText])
	Level   string // "user" or "project"
	Depth   int    // levels above cwd (0 is cwd itself); -1 for the user file
}

// ContextResult is what [ContextFiles] returns.
type ContextResult struct {
	Files []ContextFile
	// Warnings name the candidates skipped for S43 (a link outside its
	// boundary) or S45 (over 1 MiB); its JSON key is present only when
	// there are some.
	Warnings []Warning
}

// MaxContextBytes bounds a context file (S45): a larger one is skipped
// with a warning.
const MaxContextBytes = 1 << 20

// ContextFileName is the name of a context file (SPEC S38).
const ContextFileName = "XCSH.md"

// maxContextDepth is how many levels above cwd the walk looks (S38).
const maxContextDepth = 20

// ContextFiles loads the XCSH.md context files of a load context (SPEC
// S38, S39). cwd and home must be absolute (INVALID_ARGUMENT otherwise);
// configDirName "" means ".xcsh".
//
// The project candidates are taken at each S16 ancestor of cwd (the same
// walk as discovery: up to the repository root, or below home, or up to /,
// never home itself) that is at most 20 levels above cwd (depth 0 to 20,
// counted in path levels, so a skipped home still counts as a level). At
// each one the first usable file of <a>/<cfg>/XCSH.md and <a>/XCSH.md wins;
// the standalone one is not a candidate when a's own name starts with ".".
// The user file is <home>/<cfg>/agent/XCSH.md.
//
// A candidate is usable when it is a regular file (or a link to one) that
// can be read and whose content is not empty or only white space; an
// unusable one is treated as absent, so the next candidate at that depth
// gets its turn, and nothing is reported. Two more are skipped with a
// warning (skillPath the candidate): a link whose realpath leaves both the
// directory it was found in and its scope (S43: the repository root when
// cwd is in one, else the ancestor it was found at, none for "/"; home for
// the user file), "<path> links outside its skill (<realpath>); link the
// skill folder instead", read through a check of the file actually opened
// (S44); and a file over 1 MiB, "<path> is larger than 1 MiB; skipped"
// (S45).
//
// Order (S39): the user file, then the project files from the farthest
// ancestor to cwd, so the most specific comes last. A file whose content
// equals (byte for byte, after S4 decoding) that of a file later in that
// order is dropped.
//
// ContextFiles is [ContextFilesFor] with a trusted project.
func ContextFiles(ctx context.Context, fsys FS, cwd, home, configDirName string) (*ContextResult, error) {
	opts := DefaultOptions()
	opts.ConfigDirName = configDirName
	return ContextFilesFor(ctx, fsys, cwd, home, opts)
}

// ContextFilesFor is [ContextFiles] with the discovery options of the load
// context, of which it reads two: ConfigDirName, and UntrustedProject
// (S68): when the project is not trusted only the user file is loaded, and
// no project candidate is looked at, so a cloned repository's XCSH.md never
// reaches the model.
func ContextFilesFor(ctx context.Context, fsys FS, cwd, home string, opts Options) (*ContextResult, error) {
	cwd, home, err := checkContext(cwd, home)
	if err != nil {
		return nil, err
	}
	if err := canceled(ctx, "contextFiles"); err != nil {
		return nil, err
	}
	configDirName := opts.ConfigDirName
	if configDirName == "" {
		configDirName = DefaultConfigDirName
	}
	var files []ContextFile
	var warnings []Warning
	if c, ok := readContextFile(fsys, path.Join(home, configDirName, "agent", ContextFileName), home, &warnings); ok {
		files = append(files, ContextFile{Path: path.Join(home, configDirName, "agent", ContextFileName),
			Content: c, Level: "user", Depth: -1})
	}
	var ancestors []string
	var repo string
	if !opts.UntrustedProject {
		ancestors, repo = projectChain(fsys, cwd, home)
	}
	var project []ContextFile
	for _, a := range ancestors {
		if err := canceled(ctx, "contextFiles"); err != nil {
			return nil, err
		}
		depth := pathDepth(cwd) - pathDepth(a)
		if depth > maxContextDepth {
			break
		}
		candidates := []string{path.Join(a, configDirName, ContextFileName)}
		if !strings.HasPrefix(path.Base(a), ".") {
			candidates = append(candidates, path.Join(a, ContextFileName))
		}
		scope := repo
		if scope == "" && a != "/" {
			scope = a
		}
		for _, p := range candidates {
			if c, ok := readContextFile(fsys, p, scope, &warnings); ok {
				project = append(project, ContextFile{Path: p, Content: c, Level: "project", Depth: depth})
				break
			}
		}
	}
	for i := len(project) - 1; i >= 0; i-- { // farthest first
		files = append(files, project[i])
	}
	out := &ContextResult{Files: make([]ContextFile, 0, len(files)), Warnings: warnings}
	for i, f := range files {
		dup := false
		for _, later := range files[i+1:] {
			if later.Content == f.Content {
				dup = true
				break
			}
		}
		if !dup {
			out.Files = append(out.Files, f)
		}
	}
	return out, nil
}

// readContextFile returns the decoded content of the context file p, and
// whether it is usable: a regular file, readable, not blank, inside the
// directory it was found in or scope (S43; "" for none), at most 1 MiB
// (S45). The last two add a warning when they fail.
func readContextFile(fsys FS, p, scope string, warnings *[]Warning) (string, bool) {
	if t, err := fsys.Stat(p); err != nil || t != TypeFile {
		return "", false
	}
	real, err := fsys.Realpath(p)
	if err != nil {
		return "", false
	}
	within := trustedWithin(fsys, real, path.Dir(p), scope)
	if within == "" {
		*warnings = append(*warnings, warning(p, linkOutsideDiagnostic(p, real)))
		return "", false
	}
	data, err := readFileWithin(fsys, within, p, MaxContextBytes)
	if _, ok := err.(*errTooLarge); ok {
		*warnings = append(*warnings, warning(p, Diagnostic{Path: p, Code: DiagFileTooLarge, Severity: SeverityError,
			Message: p + " is larger than 1 MiB; skipped", Fix: "keep context files under 1 MiB"}))
		return "", false
	}
	if err != nil {
		return "", false
	}
	c := DecodeText(data)
	if strings.TrimSpace(c) == "" {
		return "", false
	}
	return c, true
}

// pathDepth is the number of elements of the clean absolute path p.
func pathDepth(p string) int {
	if p == "/" {
		return 0
	}
	return strings.Count(p, "/")
}
