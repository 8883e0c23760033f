package core

import (
	"bytes"
	"strconv"
)

// Discovery needs a SKILL.md's frontmatter, not its body, so it reads a
// prefix of the file and more only while the frontmatter is still open
// (PERF-NOTES: reading whole files was a large share of the time). The
// outcome is the same whether or not the FS implements [PrefixReader].
const (
	headFirstRead = 4 << 10
	// maxHeadBytes bounds what discovery reads of one SKILL.md. A
	// frontmatter still open after this many bytes is rejected: nothing a
	// person writes is that long, and it bounds the cost of a hostile
	// 100 MB file.
	maxHeadBytes = 128 << 10
)

type skillHead struct {
	data   []byte // enough of the file to parse its frontmatter
	empty  bool   // the whole file is empty after S4 decoding
	reject string // set when the frontmatter is not closed within maxHeadBytes
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

func readSkillHead(fsys FS, file string) (skillHead, error) {
	pr, _ := fsys.(PrefixReader)
	for n := headFirstRead; ; n *= 4 {
		if n > maxHeadBytes {
			n = maxHeadBytes
		}
		var data []byte
		var complete bool
		var err error
		if pr != nil {
			data, complete, err = pr.ReadFilePrefix(file, n)
		} else {
			data, err = fsys.ReadFile(file)
			if err == nil && len(data) > n {
				data = data[:n]
			} else {
				complete = true
			}
		}
		if err != nil {
			return skillHead{}, err
		}
		if complete {
			return skillHead{data: data, empty: len(data) == 0 || bytes.Equal(data, utf8BOM)}, nil
		}
		if cut, ok := frontmatterWithin(data); ok {
			return skillHead{data: cut}, nil
		}
		if n == maxHeadBytes {
			return skillHead{reject: file + ": frontmatter is not closed within the first " +
				strconv.Itoa(maxHeadBytes>>10) + " KiB; close it with a line holding only ---, or shorten it"}, nil
		}
	}
}

// frontmatterWithin reports whether prefix, an incomplete start of a file,
// already settles the frontmatter under the S5 rules: either the first
// non-blank line is not "---" (there is none), or a later line is "---"
// (it is closed). It returns prefix cut after its last complete line, which
// parses to the same frontmatter as the whole file.
func frontmatterWithin(prefix []byte) ([]byte, bool) {
	end := bytes.LastIndexAny(prefix, "\n\r")
	if end < 0 {
		// Not one complete line yet. The first line can still settle it:
		// once it can no longer become "---" there is no frontmatter.
		first := bytes.TrimSpace(bytes.TrimPrefix(prefix, utf8BOM))
		if len(first) > 3 || !bytes.HasPrefix([]byte("---"), first) {
			return prefix, true
		}
		return nil, false
	}
	cut := prefix[:end+1]
	lines := cut
	if bytes.HasPrefix(lines, utf8BOM) {
		lines = lines[len(utf8BOM):]
	}
	opened := false
	for len(lines) > 0 {
		i := bytes.IndexAny(lines, "\n\r")
		line := bytes.TrimSpace(lines[:i])
		lines = lines[i+1:]
		if !opened {
			if len(line) == 0 {
				continue
			}
			if string(line) != "---" {
				return cut, true
			}
			opened = true
			continue
		}
		if string(line) == "---" {
			return cut, true
		}
	}
	return nil, false
}
