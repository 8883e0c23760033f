package core

import (
	"bytes"
	"strconv"

	"github.com/skilldex/skilldex/internal/fmrules"
)

// Discovery needs a SKILL.md's frontmatter, not its body, so it reads a
// prefix of the file and more only while the frontmatter is still open
// (PERF-NOTES: reading whole files was a large share of the time). The
// outcome is the same whether or not the FS implements [PrefixReader].
//
// The first read is 8 KiB: most SKILL.md files are shorter, and a read
// that fills its buffer costs the host an fstat for the file's size (a
// short one is settled by the read alone, ABI.md#read_file_within). At
// 4 KiB, 57% of the benchmark's files (1-8 KB) filled it: 8 KiB made a
// read under Deno 15% cheaper, under Node 6%.
const (
	headFirstRead = 8 << 10
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

// readSkillHead reads enough of file to parse its frontmatter. With a
// [PrefixReaderInto] the data is read into *buf (grown as needed), so it is
// valid only until the next call with the same buf.
func readSkillHead(fsys FS, file string, buf *[]byte) (skillHead, error) {
	pri, _ := fsys.(PrefixReaderInto)
	pr, _ := fsys.(PrefixReader)
	for n := headFirstRead; ; n *= 4 {
		if n > maxHeadBytes {
			n = maxHeadBytes
		}
		var data []byte
		var complete bool
		var err error
		if pri != nil {
			if cap(*buf) < n {
				*buf = make([]byte, n)
			}
			b := (*buf)[:n]
			var m int
			m, complete, err = pri.ReadFilePrefixInto(file, b)
			if err == nil && (m < 0 || m > n) {
				err = &PathError{Op: "readFile", Path: file, Code: EIO} // a broken FS
			}
			if err == nil {
				data = b[:m]
			}
		} else if pr != nil {
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

// lastLineBreak is bytes.LastIndexAny(b, "\n\r"). The last line is
// usually short, so it looks back a little first; past that it goes
// forward with IndexByte (a word at a time, in wasm too): a 64 KB line of
// control characters made the backward byte loop a cost.
func lastLineBreak(b []byte) int {
	const near = 256
	for i := len(b) - 1; i >= 0 && i >= len(b)-near; i-- {
		if b[i] == '\n' || b[i] == '\r' {
			return i
		}
	}
	if len(b) <= near {
		return -1
	}
	head, last := b[:len(b)-near], -1
	for _, c := range [...]byte{'\n', '\r'} {
		for i := last + 1; i < len(head); {
			j := bytes.IndexByte(head[i:], c)
			if j < 0 {
				break
			}
			last, i = i+j, i+j+1
		}
	}
	return last
}

// frontmatterWithin reports whether prefix, an incomplete start of a file,
// already settles the frontmatter under the S5 rules: either the first
// non-blank line is not "---" (there is none), or a later line is "---"
// (it is closed). It returns prefix cut after its last complete line, which
// parses to the same frontmatter as the whole file.
func frontmatterWithin(prefix []byte) ([]byte, bool) {
	end := lastLineBreak(prefix)
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
	switch findFrontmatter(bytes.TrimPrefix(cut, utf8BOM)).state {
	case fmNone, fmClosed:
		return cut, true
	}
	return nil, false
}

// skillFrontmatter returns what [ParseSkillFile] gives for data's
// frontmatter (its Frontmatter, Warnings and Reject) but decodes only the
// bytes between the two delimiter lines (SPEC S4, S5): a long body costs
// nothing, and the result never refers to data, so discovery can reuse its
// read buffer and keeps only a few hundred bytes per skill.
// FuzzSkillFrontmatter checks it against ParseSkillFile.
func skillFrontmatter(path string, data []byte) (*Map, []string, string) {
	return skillFrontmatterInto(path, data, nil)
}

// skillFrontmatterInto is skillFrontmatter trying the direct path of
// scanjson.go first when fast is not nil: when it takes the frontmatter, the
// Map is nil and fast holds its JSON.
func skillFrontmatterInto(path string, data []byte, fast *frontmatterJSON) (*Map, []string, string) {
	bom := 0
	if bytes.HasPrefix(data, utf8BOM) {
		bom = len(utf8BOM)
	}
	// S5 on the raw bytes: a line of the decoded text is a line here.
	span := findFrontmatter(data[bom:])
	if span.state != fmClosed {
		return &Map{}, nil, ""
	}
	yamlBytes := data[bom+span.yamlStart : bom+span.yamlEnd]
	if !bytes.HasPrefix(yamlBytes, utf8BOM) { // DecodeText would drop it; the whole file's decoding keeps it
		// The direct path's result is a function of these bytes: the
		// cache's, when it has them, is the scan's (fmcache.go).
		if fast != nil && fast.cached(yamlBytes) {
			return nil, nil, ""
		}
		// Plain ASCII (the usual frontmatter) is its own S4 decoding, and
		// the scanner's character check passes it: one pass tells both.
		plain := plainASCIIRun(yamlBytes) == len(yamlBytes)
		var yamlText string
		if plain && fast != nil {
			yamlText = fast.text.bytes(yamlBytes)
		} else if plain {
			yamlText = string(yamlBytes)
		} else {
			yamlText = DecodeText(yamlBytes)
		}
		if len(yamlText) > MaxFrontmatterBytes {
			return &Map{}, nil, fmrules.SizeReject(path, span.line, len(yamlText))
		}
		if fast != nil && fast.scan(yamlText, plain) {
			fast.keep = fast.cache != nil // named by the bytes as read (cached)
			return nil, nil, ""
		}
		if m, warnings, ok := fastFrontmatter(path, yamlText, span.line); ok {
			return m, warnings, ""
		}
	}
	// The complete path, on the file up to the closing line.
	f := parseSkillFile(path, data[:bom+span.rest], false)
	return f.Frontmatter, f.Warnings, f.Reject
}
