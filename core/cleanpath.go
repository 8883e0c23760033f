package core

import "path"

// A discovery cleans and joins a few hundred paths that are already clean
// (the context's directories, a provider's fixed subdirectories). path.Clean
// is a 6.6 KB wasm function that walks the path byte by byte through many
// branches, and in V8 such a function is sent to the optimising compiler
// after a few calls (see [scanContext]): the one-shot process then waits for
// that compilation at exit. cleanPath and joinPath answer the common case,
// a clean absolute path, with a small loop and leave the rest to package
// path, so their results are always path.Clean's and path.Join's
// (FuzzCleanPath checks it).

// cleanPath is path.Clean(p).
func cleanPath(p string) string {
	if isCleanAbs(p) {
		return p
	}
	return path.Clean(p)
}

// joinPath is path.Join(dir, elem).
func joinPath(dir, elem string) string {
	if isCleanAbs(dir) && cleanElems(elem) {
		if dir == "/" {
			return "/" + elem
		}
		return dir + "/" + elem
	}
	return path.Join(dir, elem)
}

// parentDir is path.Dir(p).
func parentDir(p string) string {
	if isCleanAbs(p) {
		i := len(p) - 1
		for p[i] != '/' {
			i--
		}
		if i == 0 {
			return "/"
		}
		return p[:i]
	}
	return path.Dir(p)
}

// isCleanAbs reports whether p is an absolute path that path.Clean leaves
// as it is.
func isCleanAbs(p string) bool {
	return p == "/" || p != "" && p[0] == '/' && cleanElems(p[1:])
}

// cleanElems reports whether e is one or more elements joined by single
// slashes, none of them "." or "..", with no slash at either end.
//
//go:noinline
func cleanElems(e string) bool {
	if e == "" || e[len(e)-1] == '/' {
		return false
	}
	for i := 0; i < len(e); i++ {
		if i > 0 {
			if e[i] != '/' {
				continue
			}
			i++ // e does not end in '/'
		}
		// An element starts at i.
		switch e[i] {
		case '/':
			return false
		case '.':
			if i+1 == len(e) || e[i+1] == '/' || e[i+1] == '.' && (i+2 == len(e) || e[i+2] == '/') {
				return false
			}
		}
	}
	return true
}
