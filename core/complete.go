package core

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
)

// A FrontmatterParser is the complete frontmatter path of SPEC S5 to S7:
// every frontmatter the fast scanner (yaml_scan.go) declines, and every
// file `validate` reads, goes through it. Given the S4-decoded text of the
// SKILL.md at path (or a prefix of it holding its whole frontmatter) it
// appends to b the result in the encoding that package
// github.com/skilldex/skilldex/internal/frontmatter documents (and
// wasm/ABI.md, for hosts). An error means the parser could not run at all;
// the file is then skipped with a warning that names it.
type FrontmatterParser func(b []byte, path, text string) ([]byte, error)

// completeParser is the complete path in use. Builds without the
// skilldex_splityaml tag link internal/frontmatter here (complete_linked.go);
// the wasm engine module is built with the tag, links neither yaml.v3 nor
// adrg/frontmatter, and sets a parser that asks its host (wasm/ABI.md).
var completeParser FrontmatterParser = linkedParser

// UseFrontmatterParser replaces the complete frontmatter path. Call it
// before any other function of this package, from one goroutine; nil
// restores the default. Only a host of the engine needs it: the wasm
// module, which reaches the complete path through a host import.
func UseFrontmatterParser(p FrontmatterParser) {
	if p == nil {
		p = linkedParser
	}
	completeParser = p
}

// errNoCompleteParser is linkedParser's error in a build without one.
var errNoCompleteParser = errors.New("this build has no complete frontmatter parser (built with the skilldex_splityaml tag and none set)")

// completeSkillFile runs the complete path on text, the S4-decoded text of
// the file at path.
func completeSkillFile(path, text string) SkillFile {
	f := SkillFile{Empty: text == "", Frontmatter: &Map{}}
	rest := 0
	enc, err := completeParser(nil, path, text)
	if err == nil {
		rest, err = decodeComplete(&f, enc, len(text))
	}
	if err != nil {
		f = SkillFile{Empty: text == "", Frontmatter: &Map{}, Body: strings.TrimSpace(text),
			Reject: path + ": the YAML parser could not run (" + err.Error() + "); the skill is skipped"}
		return f
	}
	if f.Line == 0 {
		f.Body = strings.TrimSpace(text)
	} else {
		f.Body = strings.TrimSpace(text[rest:])
	}
	return f
}

// errBadResult is the error for a result that does not decode: a broken
// parser or host.
var errBadResult = errors.New("the parser's result does not decode")

// resultDecoder reads the encoding of a complete-path result; the first
// failure sets bad and every later read returns zero values.
type resultDecoder struct {
	b     []byte
	bad   bool
	depth int
}

func (d *resultDecoder) u32() int {
	if len(d.b) < 4 {
		d.bad = true
		return 0
	}
	n := binary.LittleEndian.Uint32(d.b)
	d.b = d.b[4:]
	return int(n)
}

func (d *resultDecoder) str() string {
	n := d.u32()
	if n > len(d.b) {
		d.bad = true
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *resultDecoder) value() Value {
	if len(d.b) == 0 || d.depth > maxJSONDepth {
		d.bad = true
		return nil
	}
	tag := d.b[0]
	d.b = d.b[1:]
	switch tag {
	case 0:
		return nil
	case 1:
		return false
	case 2:
		return true
	case 3:
		if len(d.b) < 8 {
			d.bad = true
			return nil
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
		d.b = d.b[8:]
		return f
	case 4:
		return d.str()
	case 5:
		n := d.u32()
		if n > len(d.b) { // each value takes at least a byte
			d.bad = true
			return nil
		}
		d.depth++
		list := make([]Value, 0, n)
		for i := 0; i < n && !d.bad; i++ {
			list = append(list, d.value())
		}
		d.depth--
		return list
	case 6:
		return d.mapping()
	}
	d.bad = true
	return nil
}

func (d *resultDecoder) mapping() *Map {
	n := d.u32()
	if n > len(d.b)/5 { // each entry takes at least five bytes
		d.bad = true
		return &Map{}
	}
	d.depth++
	m := newMapCap(n)
	for i := 0; i < n && !d.bad; i++ {
		k := d.str()
		m.Set(k, d.value())
	}
	d.depth--
	return m
}

// decodeComplete fills f's Frontmatter, Warnings, Reject and Line from enc
// and returns the offset of the text after the frontmatter, which must be
// within textLen.
func decodeComplete(f *SkillFile, enc []byte, textLen int) (rest int, err error) {
	d := resultDecoder{b: enc}
	if len(d.b) == 0 {
		return 0, errBadResult
	}
	found := d.b[0]
	d.b = d.b[1:]
	line, rest := d.u32(), d.u32()
	reject := d.str()
	nw := d.u32()
	if nw > len(d.b)/4 {
		return 0, errBadResult
	}
	var warnings []string
	for i := 0; i < nw && !d.bad; i++ {
		warnings = append(warnings, d.str())
	}
	if d.b == nil || len(d.b) == 0 || d.b[0] != 6 {
		return 0, errBadResult
	}
	d.b = d.b[1:]
	m := d.mapping()
	if d.bad || len(d.b) != 0 || found > 1 || rest > textLen || (found == 1) != (line > 0) {
		return 0, errBadResult
	}
	f.Frontmatter, f.Warnings, f.Reject, f.Line = m, warnings, reject, line
	return rest, nil
}
