// Package frontmatter is the complete frontmatter path of SPEC S5 to S7:
// github.com/adrg/frontmatter finds the frontmatter between its `---`
// delimiter lines (S5) with a format whose unmarshaller is yaml.v3
// (go.yaml.in/yaml/v3), and yaml.v3's node tree is walked into values with
// S6's differences and S7's recovery (yaml.go).
//
// The engine (package core) runs its own fast scanner first and comes here
// for every frontmatter the scanner declines, and for `validate`. It does
// not link this package in the wasm engine module: there, a second module
// built from wasm/frontmatter holds it, and the engine reaches it through a
// host import (wasm/ABI.md). So the two talk in bytes: [AppendParse] writes
// its result in the encoding below, which core decodes, natively and in
// wasm alike.
//
// The encoding of a result (all integers u32 little-endian):
//
//	result  = found:u8 line:u32 rest:u32 reject:str nwarnings:u32 warning:str... value
//	str     = len:u32 bytes
//	value   = 0x00 (null) | 0x01 (false) | 0x02 (true) | 0x03 bits:u64 (a float64)
//	        | 0x04 str | 0x05 n:u32 value... (a list)
//	        | 0x06 n:u32 (key:str value)... (a mapping, keys unique, in order)
//
// found is 1 when the text has a frontmatter; line is then the 1-based line
// of its opening delimiter and rest the byte offset in the text where the
// text after the closing delimiter line starts (both 0 otherwise). The
// value is always a mapping (empty without a frontmatter, or when reject is
// set).
package frontmatter

import (
	"encoding/binary"
	"math"
	"strings"

	adrg "github.com/adrg/frontmatter"
	"github.com/skilldex/skilldex/internal/fmrules"
	"github.com/skilldex/skilldex/internal/panictext"
)

// AppendParse runs the complete path on text, the S4-decoded text of the
// SKILL.md at path (or a prefix of it holding its whole frontmatter), and
// appends the encoded result to b. path is used only in messages. It never
// panics.
func AppendParse(b []byte, path, text string) []byte {
	found, line, rest, m, warnings, reject := parse(path, text)
	b = append(b, 0)
	if found {
		b[len(b)-1] = 1
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(line))
	b = binary.LittleEndian.AppendUint32(b, uint32(rest))
	b = appendStr(b, reject)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(warnings)))
	for _, w := range warnings {
		b = appendStr(b, w)
	}
	return appendValue(b, m)
}

// split is adrg/frontmatter's parse with one format: YAML between `---`
// lines (not its defaults: `---yaml`, TOML and JSON frontmatter are not
// SKILL.md's, SPEC S5). Its unmarshaller keeps the YAML text: yaml.v3 then
// parses it in yamlFrontmatter, which needs the line the text starts on,
// known only once adrg has returned the rest.
func split(text string) (yamlText string, rest int, found bool) {
	format := adrg.NewFormat("---", "---", func(data []byte, v any) error {
		*v.(*string), found = string(data), true
		return nil
	})
	after, err := adrg.Parse(strings.NewReader(text), &yamlText, format)
	if err != nil || !found {
		return "", 0, false // a strings.Reader never fails, nor does the unmarshaller
	}
	return yamlText, len(text) - len(after), true
}

func parse(path, text string) (found bool, line, rest int, m *omap, warnings []string, reject string) {
	m = &omap{}
	defer func() {
		if r := recover(); r != nil { // none expected: parseYAML recovers yaml.v3's
			m, warnings, reject = &omap{}, nil, path+": the frontmatter parser failed ("+panictext.Of(r)+"); the skill is skipped"
		}
	}()
	yamlText, rest, found := split(text)
	if !found {
		return false, 0, 0, m, nil, ""
	}
	// The closing line ends at rest; the YAML ends where it starts.
	closeStart := strings.LastIndexByte(strings.TrimSuffix(text[:rest], "\n"), '\n') + 1
	start := closeStart - len(yamlText)
	line = strings.Count(text[:start], "\n") // the opening line; the YAML starts on the next one
	if len(yamlText) > fmrules.MaxBytes {
		return true, line, rest, m, nil, fmrules.SizeReject(path, line, len(yamlText))
	}
	m, warnings, reject = yamlFrontmatter(path, yamlText, line+1)
	if reject != "" {
		m = &omap{}
	}
	return true, line, rest, m, warnings, reject
}

// omap is a mapping that keeps its keys in insertion order; setting a key
// again keeps its position and replaces its value (SPEC S6).
type omap struct {
	keys []string
	vals []any
	pos  map[string]int
}

func (m *omap) Set(k string, v any) {
	if m.pos == nil {
		m.pos = make(map[string]int)
	}
	if i, ok := m.pos[k]; ok {
		m.vals[i] = v
		return
	}
	m.pos[k] = len(m.keys)
	m.keys = append(m.keys, k)
	m.vals = append(m.vals, v)
}

func (m *omap) Keys() []string { return m.keys }

// recoverMap is SPEC S7's recovery as a mapping.
func recoverMap(src string) *omap {
	m := &omap{}
	fmrules.Recover(src, func(k, v string) { m.Set(k, v) })
	return m
}

func appendStr(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, 0)
	case bool:
		if v {
			return append(b, 2)
		}
		return append(b, 1)
	case float64:
		return binary.LittleEndian.AppendUint64(append(b, 3), math.Float64bits(v))
	case string:
		return appendStr(append(b, 4), v)
	case []any:
		b = binary.LittleEndian.AppendUint32(append(b, 5), uint32(len(v)))
		for _, e := range v {
			b = appendValue(b, e)
		}
		return b
	case *omap:
		if v == nil {
			v = &omap{}
		}
		b = binary.LittleEndian.AppendUint32(append(b, 6), uint32(len(v.keys)))
		for i, k := range v.keys {
			b = appendValue(appendStr(b, k), v.vals[i])
		}
		return b
	}
	panic("frontmatter: a value of an unexpected type") // the walk makes only the types above
}

// AppendParseYAML appends the result of the YAML half of the complete path
// alone: src is the text between the delimiter lines of the file at path,
// starting on its line `line`. found, line and rest are 0 in the result.
// The differential tests of core's fast scanner compare against it, on
// texts no delimiter could cut.
func AppendParseYAML(b []byte, path, src string, line int) []byte {
	m, warnings, reject := yamlFrontmatter(path, src, line)
	if reject != "" {
		m = &omap{}
	}
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	b = appendStr(b, reject)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(warnings)))
	for _, w := range warnings {
		b = appendStr(b, w)
	}
	return appendValue(b, m)
}
