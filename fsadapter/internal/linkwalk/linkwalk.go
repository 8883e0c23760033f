// Package linkwalk resolves a path through symbolic links the way Linux
// does, over any tree a [core.FS] adapter can look into one name at a time.
// memfs walks its nodes with it and iofs an io/fs.FS, so that both follow
// the same rules: a target is relative to its link's directory or, when
// absolute, to the root of the tree; ".." is physical (taken from the
// directory the walk has reached, not from the text); at most [MaxLinks]
// links are followed in one resolution; and every failure carries the code
// the Linux kernel gives.
package linkwalk

import (
	"strings"

	"github.com/skilldex/skilldex/core"
)

// MaxLinks is Linux's MAXSYMLINKS: the 41st link followed in one
// resolution fails with ELOOP.
const MaxLinks = 40

// Child looks up name in the directory dir. It returns the entry, its type
// (lstat semantics: a link is core.TypeSymlink) and, for a link, its
// target; code is "" when the entry exists, else a POSIX code (ENOENT for a
// missing name).
type Child[N any] func(dir N, name string) (entry N, typ core.FileType, target string, code string)

// Resolve walks the absolute path p from root, following symbolic links in
// every component and, when followLast is set, in the last one too. It
// returns the entry, its real path ("/" for the root), and "" or a POSIX
// code: EINVAL for a relative p, ENOENT for a missing name or a link with
// an empty target, ENOTDIR for a name under something that is not a
// directory, ELOOP past MaxLinks links, or the code child gave.
func Resolve[N any](root N, p string, followLast bool, child Child[N]) (N, string, string) {
	var zero N
	if !strings.HasPrefix(p, "/") {
		return zero, "", core.EINVAL
	}
	// dirs holds the entries from the root to the current one, types their
	// types and names their names (dirs[0] is the root, which has none).
	dirs := []N{root}
	types := []core.FileType{core.TypeDir}
	var names []string
	// todo holds the components still to walk, the next one last.
	todo := pushComponents(nil, p)
	links := 0
	for len(todo) > 0 {
		name := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if types[len(types)-1] != core.TypeDir {
			return zero, "", core.ENOTDIR
		}
		switch name {
		case ".":
			continue
		case "..":
			if len(dirs) > 1 {
				dirs, types, names = dirs[:len(dirs)-1], types[:len(types)-1], names[:len(names)-1]
			}
			continue
		}
		entry, typ, target, code := child(dirs[len(dirs)-1], name)
		if code != "" {
			return zero, "", code
		}
		last := len(todo) == 0
		if typ == core.TypeSymlink && (followLast || !last) {
			links++
			if links > MaxLinks {
				return zero, "", core.ELOOP
			}
			if target == "" {
				return zero, "", core.ENOENT
			}
			if target[0] == '/' {
				dirs, types, names = dirs[:1], types[:1], names[:0]
			}
			todo = pushComponents(todo, target)
			continue
		}
		dirs, types, names = append(dirs, entry), append(types, typ), append(names, name)
	}
	return dirs[len(dirs)-1], "/" + strings.Join(names, "/"), ""
}

// pushComponents pushes the slash-separated components of p onto todo so
// that the first component is popped first. A trailing slash becomes a "."
// component, which (as on Linux) requires what precedes it to be a
// directory.
func pushComponents(todo []string, p string) []string {
	if strings.HasSuffix(p, "/") && strings.Trim(p, "/") != "" {
		todo = append(todo, ".")
	}
	for p != "" {
		p = strings.TrimRight(p, "/")
		i := strings.LastIndexByte(p, '/')
		if p[i+1:] != "" {
			todo = append(todo, p[i+1:])
		}
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return todo
}
