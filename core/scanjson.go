package core

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/skilldex/skilldex/internal/fmrules"
	"github.com/skilldex/skilldex/internal/jsontext"
)

// This file is the fast path of discovery's frontmatter: the
// subset scanner of yaml_scan.go (one grammar walk, yamlScanner, with this
// file's frontmatterJSON as its output) writing the compact JSON of the
// mapping straight into a reused buffer, without building Values, and noting where
// each top-level value's JSON sits so that a Skill's fields (S8, S9, S13,
// S14) are read from that JSON. A discovered skill keeps its frontmatter as
// JSON anyway (compactMap), so this skips the tree that was built only to
// be written out, and the skill's name, description and globs are slices of
// that one string.
//
// It accepts what scanFrontmatter accepts, except where writing as it reads
// cannot give the reference's result; those documents take the Map path
// (scanFrontmatter, then compactMap), which is slower, never different:
//
//   - a repeated key (S6 keeps its first position and takes the last value,
//     which would rewrite JSON already written), or more than
//     maxDirectKeys keys in one mapping (the repeat check is a linear scan);
//   - a number JSON cannot carry back (NaN, an infinity, -0: compactMap
//     keeps those as a tree);
//   - a flow mapping (`{a: 1}`: none in a census of 1,917 published
//     files), for both reasons.
//
// FuzzFrontmatterJSON checks both claims against scanFrontmatter and the
// JSON writer.

// maxDirectKeys bounds the keys of one mapping on the direct path.
const maxDirectKeys = 64

// frontmatterJSON holds the buffers of the direct path, reused from file to
// file within one scan of a root.
type frontmatterJSON struct {
	// text holds the decoded frontmatters the scanner reads (the Map
	// path's trees may point into it).
	text stringArena
	w    jsontext.Writer
	tops []jsonSpan // the top-level keys, in order, and their values' JSON in w.b
	keys []string   // the keys of the block mappings being read, outermost first (repeat check)

	cache *FrontmatterCache // nil: none
	hit   *cachedScan       // the last frontmatter's result, when the cache had it
	sum   cacheKey          // the last frontmatter's name in the cache
	keep  bool              // result adds the last frontmatter's result to the cache, under sum
}

// cached reports whether the cache holds the result for the frontmatter
// bytes src, and if so makes it the one result gives.
func (j *frontmatterJSON) cached(src []byte) bool {
	j.hit, j.keep = nil, false
	if j.cache == nil {
		return false
	}
	j.sum = j.cache.sum(src)
	j.hit = j.cache.lookup(j.sum)
	return j.hit != nil
}

// result is the last frontmatter's JSON and the fields read from it: the
// cache's on a hit; else the JSON in keep, or with a cache in a string of
// its own that the cache and the skill share (no second copy: a first
// discovery's peak memory is what it was without a cache).
func (j *frontmatterJSON) result(keep *stringArena) (string, skillFields) {
	if j.hit != nil {
		return j.hit.raw, j.hit.fields
	}
	if !j.keep {
		raw := keep.bytes(j.w.B)
		return raw, j.fields(raw)
	}
	raw := string(j.w.B)
	f := j.fields(raw)
	j.cache.add(j.sum, raw, f)
	return raw, f
}

// jsonSpan is one top-level key and where its value's JSON sits.
type jsonSpan struct {
	key        string
	start, end int
}

// scan writes the JSON of the mapping src (YAML text after S4 decoding) into
// j.w.B and reports whether src is on the direct path. plain says that src
// is known to pass scanChars (plainASCIIRun covers it). The grammar is
// yaml_scan.go's, walked with j as its output.
func (j *frontmatterJSON) scan(src string, plain bool) bool {
	j.w.B = j.w.B[:0]
	j.tops = j.tops[:0]
	j.keys = j.keys[:0]
	if !plain && !scanChars(src) {
		return false
	}
	s := yamlScanner{src: src, j: j}
	if _, ok := s.document(nil); !ok {
		return false
	}
	return !tooDeepForYAML(src)
}

// plainEnd is where the plain scalar text ends: at its first " #" (a
// comment), else at its end. ok is false when, before that, it holds ": "
// or ends in ':' once trailing spaces are cut, which the scanner declines:
// that is a ':' followed by a space or by the end. It is one pass where
// strings.Index and strings.Contains made three, and skips eight bytes
// at a time while they hold neither ':' nor '#'.
func plainEnd(text string) (end int, ok bool) {
	for i := 0; i < len(text); i++ {
		for i+8 <= len(text) {
			w := uint64(text[i]) | uint64(text[i+1])<<8 | uint64(text[i+2])<<16 | uint64(text[i+3])<<24 |
				uint64(text[i+4])<<32 | uint64(text[i+5])<<40 | uint64(text[i+6])<<48 | uint64(text[i+7])<<56
			if m := jsontext.Bytes8Equal(w, ':') | jsontext.Bytes8Equal(w, '#'); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i == len(text) {
			break
		}
		switch text[i] {
		case ':':
			if i+1 == len(text) || text[i+1] == ' ' {
				return 0, false
			}
		case '#':
			if i > 0 && text[i-1] == ' ' {
				return i - 1, true
			}
		}
	}
	return len(text), true
}

// scalar writes the JSON of a plain scalar as fmrules.ResolveScalar resolves it.
func (j *frontmatterJSON) scalar(text string) bool {
	if text != "" && !mayResolve(text[0]) {
		j.w.Str(text) // ResolveScalar's last case: a string
		return true
	}
	// writeValue of ResolveScalar's value, without boxing it.
	switch tag, f, b, _ := fmrules.ResolveScalarParts("", text); tag {
	case fmrules.TagNull:
		j.w.Raw("null")
	case fmrules.TagBool:
		j.w.Bool(b)
	case fmrules.TagInt, fmrules.TagFloat:
		if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 && math.Signbit(f) {
			return false // compactMap keeps such a number as a tree
		}
		j.w.Num(f)
	default: // the text as written
		j.w.Str(text)
	}
	return true
}

// mayResolve reports whether a plain scalar starting with c may resolve to
// something other than itself as a string (ResolveScalar's cases).
func mayResolve(c byte) bool {
	switch {
	case c == '.', c == '~', c == 'n', c == 'N', c == 't', c == 'T', c == 'f', c == 'F':
		return true
	case c == '+', c == '-', c >= '0' && c <= '9':
		return true
	}
	return false
}

// flowSequence writes the flow sequence that starts text as JSON
// (flowItems); it returns the text after the closing bracket.
func (j *frontmatterJSON) flowSequence(text string) (string, bool) {
	j.w.Byte('[')
	n := 0
	rest, ok := flowItems(text, func(item string, quoted bool) bool {
		if n > 0 {
			j.w.Byte(',')
		}
		n++
		if quoted {
			j.w.Str(item)
			return true
		}
		return j.scalar(item)
	})
	if ok {
		j.w.Byte(']')
	}
	return rest, ok
}

// value returns the JSON of the top-level value under key within raw (the
// string of j.w.B), or "" when the key is absent. Out of line: fields looks
// up nine keys, and nine copies of this loop made fields a function that V8
// optimises after a few skills (see [scanContext]).
//
//go:noinline
func (j *frontmatterJSON) value(raw, key string) string {
	for _, t := range j.tops {
		if t.key == key {
			return raw[t.start:t.end]
		}
	}
	return ""
}

// fields reads what a Skill takes from its frontmatter out of raw, the
// string of j.w.B. Strings without escapes are slices of raw.
func (j *frontmatterJSON) fields(raw string) skillFields {
	var f skillFields
	f.disabled = j.value(raw, "enabled") == "false" // S9: the boolean only
	desc := j.value(raw, "description")
	switch desc {
	case "", "null", "false", "0", `""`: // S14's falsy values (NaN never gets here)
	default:
		f.described = true
	}
	f.description, _ = jsonString(desc)
	f.name, _ = jsonString(j.value(raw, "name"))
	f.contexts = jsonStrings(j.value(raw, "contexts"))
	f.globs = jsonStrings(j.value(raw, "globs"))
	aa := j.value(raw, "alwaysApply")
	if aa == "" {
		aa = j.value(raw, "always-apply")
	}
	if aa == "true" || aa == "false" {
		f.alwaysApply, f.hasAlwaysApply = aa == "true", true
	}
	f.disableModelInvocation = j.value(raw, "disable-model-invocation") == "true" // S47: the booleans only
	f.disableUserInvocation = j.value(raw, "user-invocable") == "false"
	return f
}

// jsonString decodes v, the JSON this file wrote, when it is a string.
func jsonString(v string) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	if strings.IndexByte(v, '\\') < 0 {
		return v[1 : len(v)-1], true
	}
	// jsontext.Writer.Str's escapes (\" \\ \b \f \n \r \t \u00XX) are Go's too.
	s, err := strconv.Unquote(v)
	return s, err == nil
}

// jsonStrings decodes v, the JSON this file wrote, when it is an array of
// strings (S8); anything else is nil.
func jsonStrings(v string) []string {
	if len(v) < 2 || v[0] != '[' {
		return nil
	}
	n := 0
	for i := 1; i < len(v)-1; i++ {
		if v[i] == '"' {
			n++ // an upper bound: quotes open and close strings
		}
	}
	out := make([]string, 0, n/2)
	for i := 1; i < len(v)-1; {
		if v[i] == ',' {
			i++
		}
		if v[i] != '"' {
			return nil // null, a boolean or a number
		}
		k := i + 1
		for v[k] != '"' {
			if v[k] == '\\' {
				k++
			}
			k++
		}
		s, ok := jsonString(v[i : k+1])
		if !ok {
			return nil
		}
		out = append(out, s)
		i = k + 1
	}
	return out
}
