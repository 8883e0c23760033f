package frontmatter

import (
	"errors"
	"strconv"
	"strings"

	"github.com/skilldex/skilldex/internal/fmrules"
	"github.com/skilldex/skilldex/internal/panictext"
	"go.yaml.in/yaml/v3"
)

// This file is the YAML half of the complete path (SPEC S6 and S7): yaml.v3
// (go.yaml.in/yaml/v3) parses the frontmatter into a yaml.Node tree, which
// is then walked into values. The walk mirrors what yaml.v3's own decoder does when it
// unmarshals into an interface{} (tag resolution, merge keys, alias
// bounds, the errors it reports), with the differences SPEC S6 asks for:
//
//   - a duplicate key keeps its first position and takes the last value
//     (yaml.v3 rejects duplicates);
//   - keys are the key's text as written (`1: x` has the key "1");
//   - integers written with leading zeros are decimal, as in the YAML 1.2
//     core schema (yaml.v3 still reads 012 as the octal 10);
//   - timestamps, !!binary and unknown tags stay the string as written;
//   - numbers are float64 (JSON numbers), NaN and infinities included (the
//     JSON writer prints them as null);
//   - keys merged with `<<` come after the mapping's own keys, in the
//     order yaml.v3's decoder inserts them;
//   - nesting deeper than fmrules.MaxDepth rejects the file.

// yamlFrontmatter parses src with yaml.v3. line is the line of src's first
// line in the whole file.
func yamlFrontmatter(path, src string, line int) (m *omap, warnings []string, reject string) {
	if bound, at := fmrules.DepthBound(src); bound > fmrules.DepthGuard {
		return &omap{}, nil, fmrules.DepthReject(path, line+at-1)
	}
	doc, err := parseYAML(src)
	if err != nil {
		reason, at := yamlErrorLine(err.Error(), src)
		return invalidYAML(path, src, line, at, reason)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return &omap{}, nil, "" // empty or only comments
	}
	w := walker{}
	root := doc.Content[0]
	switch root.Kind {
	case yaml.MappingNode:
		m = w.mapping(root, 1)
	case yaml.ScalarNode:
		v := w.scalar(root)
		if w.err == "" {
			if v == nil {
				return &omap{}, nil, "" // `~` or `null`: nothing, like an empty frontmatter
			}
			return &omap{}, []string{path + ":" + strconv.Itoa(line+root.Line-1) +
				": frontmatter is a single value, not a mapping; write one key: value per line (e.g. name: my-skill)"}, ""
		}
	default:
		return &omap{}, []string{path + ":" + strconv.Itoa(line+root.Line-1) +
			": frontmatter is a list, not a mapping; write one key: value per line (e.g. name: my-skill)"}, ""
	}
	if w.err != "" {
		if w.deep {
			return &omap{}, nil, fmrules.DepthReject(path, line+w.errLine-1)
		}
		return invalidYAML(path, src, line, w.errLine, w.err)
	}
	return m, nil, ""
}

// parseYAML runs yaml.v3, turning any panic it does not handle itself into
// an error: a SKILL.md must never take the host down.
func parseYAML(src string) (doc yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("yaml: the YAML parser failed: " + panictext.Of(r))
		}
	}()
	err = yaml.Unmarshal([]byte(src), &doc)
	return doc, err
}

// invalidYAML is SPEC S7: the recovered mapping and the warning
// `<filePath>:<line>: invalid YAML (<reason>); <fix>`. at is the 1-based
// line within src.
func invalidYAML(path, src string, line, at int, reason string) (*omap, []string, string) {
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	if at > len(lines) {
		at = len(lines)
	}
	if at < 1 {
		at = 1
	}
	// yaml.v3 reports an unclosed flow collection that starts on the
	// first line at the line where it gave up: point at the opening one.
	if strings.HasPrefix(reason, "found a tab character") {
		for i := at; i <= len(lines); i++ {
			if l := lines[i-1]; strings.Contains(l[:len(l)-len(strings.TrimLeft(l, " \t"))], "\t") {
				at = i
				break
			}
		}
	}
	// yaml.v3 gives no line for a control character:
	// point at the first line that holds one.
	if reason == "control characters are not allowed" {
		for i, l := range lines {
			if strings.IndexFunc(l, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f }) >= 0 {
				at = i + 1
				break
			}
		}
	}
	if open := fmrules.FlowOpener(reason); open != 0 {
		for i := at; i >= 1; i-- {
			if strings.IndexByte(lines[i-1], open) >= 0 {
				at = i
				break
			}
		}
	}
	return recoverMap(src), []string{fmrules.InvalidYAMLWarning(path, line+at-1, reason, lines[at-1])}, ""
}

// yamlParserProblems are the messages of libyaml's parser (parserc.go), as
// opposed to its scanner: yaml.v3 reports their line 0-based.
var yamlParserProblems = [...]string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"found undefined tag handle",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

// yamlErrorLine splits a yaml.v3 error message "yaml: line N: reason" into
// the reason and the 1-based line within src it is about. yaml.v3 numbers
// scanner errors from 1 and parser errors from 0, and leaves the number out
// when it would be 0 (and for a few errors of its own).
func yamlErrorLine(msg, src string) (reason string, line int) {
	reason = strings.TrimPrefix(msg, "yaml: ")
	line = 1
	if rest, ok := strings.CutPrefix(reason, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				reason, line = rest[i+2:], n
				for _, p := range yamlParserProblems {
					if reason == p {
						line++
						break
					}
				}
				if strings.HasPrefix(reason, "expected ") && strings.Contains(reason, " event but got ") {
					line++
				}
			}
		}
		return reason, line
	}
	// "unknown anchor 'x' referenced" carries no line: find the alias.
	if name, ok := strings.CutPrefix(reason, "unknown anchor '"); ok {
		name = strings.TrimSuffix(name, "' referenced")
		if i := indexAlias(src, name); i >= 0 {
			line = 1 + strings.Count(src[:i], "\n")
		}
	}
	return reason, line
}

// indexAlias returns the offset of the first `*name` in src that is not
// followed by more anchor characters, or -1.
func indexAlias(src, name string) int {
	for off := 0; ; {
		i := strings.Index(src[off:], "*"+name)
		if i < 0 {
			return -1
		}
		end := off + i + 1 + len(name)
		if end == len(src) || strings.IndexByte(" \t\n,[]{}", src[end]) >= 0 {
			return off + i
		}
		off += i + 1
	}
}

// walker turns a yaml.Node tree into Values, mirroring yaml.v3's decoder
// into interface{} (decode.go: unmarshal, alias, mapping, merge, scalar).
// The first error stops the walk; err and errLine describe it.
type walker struct {
	err     string
	errLine int  // 1-based, within the YAML text
	deep    bool // the error is the depth limit, not invalid YAML

	aliases []*yaml.Node // the aliases being expanded, for cycles
	decoded int          // nodes decoded, as yaml.v3's decodeCount
	aliased int          // nodes decoded under an alias, as yaml.v3's aliasCount
}

// yamlMaxDecoded bounds the nodes one frontmatter may decode to once
// aliases are involved. Without aliases a 64 KiB text has fewer than 33000
// nodes; yaml.v3's own ratio rule (below) catches exponential alias
// graphs early, this catches the rest.
const yamlMaxDecoded = 1 << 17

func (w *walker) fail(n *yaml.Node, reason string) {
	if w.err == "" {
		w.err, w.errLine = reason, n.Line
	}
}

// count is yaml.v3's "excessive aliasing" rule (decoder.unmarshal) plus an
// absolute bound. It reports false once the walk must stop.
func (w *walker) count(n *yaml.Node) bool {
	if w.err != "" {
		return false
	}
	w.decoded++
	if len(w.aliases) > 0 {
		w.aliased++
	}
	if w.aliased > 0 && w.decoded > yamlMaxDecoded ||
		w.aliased > 100 && w.decoded > 1000 && float64(w.aliased)/float64(w.decoded) > allowedAliasRatio(w.decoded) {
		w.fail(n, "document contains excessive aliasing")
		return false
	}
	return true
}

// allowedAliasRatio is yaml.v3's (decode.go).
func allowedAliasRatio(decodeCount int) float64 {
	const low, high = 400000, 4000000
	switch {
	case decodeCount <= low:
		return 0.99
	case decodeCount >= high:
		return 0.10
	}
	return 0.99 - 0.89*(float64(decodeCount-low)/float64(high-low))
}

// value decodes n at the given depth (the number of collections that
// will enclose it if it is one, counting itself).
func (w *walker) value(n *yaml.Node, depth int) any {
	if !w.count(n) {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return w.scalar(n)
	case yaml.MappingNode:
		return w.mapping(n, depth)
	case yaml.SequenceNode:
		if !w.depthOK(n, depth) {
			return nil
		}
		list := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v := w.value(c, depth+1)
			if w.err != "" {
				return nil
			}
			list = append(list, v)
		}
		return list
	case yaml.AliasNode:
		target, ok := w.enter(n)
		if !ok {
			return nil
		}
		v := w.value(target, depth)
		w.aliases = w.aliases[:len(w.aliases)-1]
		return v
	}
	w.fail(n, "cannot decode node with unknown kind "+strconv.Itoa(int(n.Kind)))
	return nil
}

// enter starts expanding the alias n, failing on a cycle as yaml.v3 does.
// The caller pops w.aliases when done.
func (w *walker) enter(n *yaml.Node) (*yaml.Node, bool) {
	for _, a := range w.aliases {
		if a == n {
			w.fail(n, "anchor '"+n.Value+"' value contains itself")
			return nil, false
		}
	}
	if n.Alias == nil {
		w.fail(n, "unknown anchor '"+n.Value+"' referenced")
		return nil, false
	}
	w.aliases = append(w.aliases, n)
	return n.Alias, true
}

func (w *walker) depthOK(n *yaml.Node, depth int) bool {
	if depth > fmrules.MaxDepth {
		if w.err == "" {
			line := n.Line
			if len(w.aliases) > 0 {
				line = w.aliases[0].Line // where the expansion started
			}
			w.err, w.errLine, w.deep = "too deep", line, true
		}
		return false
	}
	return true
}

func isMergeKey(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Value == "<<" && (n.Tag == "" || n.Tag == "!" || n.Tag == "!!merge" || n.Tag == "tag:yaml.org,2002:merge")
}

// mapping decodes a mapping node into a new Map.
func (w *walker) mapping(n *yaml.Node, depth int) *omap {
	if !w.depthOK(n, depth) {
		return nil
	}
	m := &omap{}
	var merge *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if isMergeKey(n.Content[i]) {
			merge = n.Content[i+1] // as in yaml.v3, the last << wins
			continue
		}
		k, ok := w.key(n.Content[i])
		if !ok {
			return nil
		}
		v := w.value(n.Content[i+1], depth+1)
		if w.err != "" {
			return nil
		}
		m.Set(k, v)
	}
	if merge != nil {
		seen := make(map[string]bool, len(n.Content)/2)
		for _, k := range m.Keys() {
			seen[k] = true
		}
		seen["<<"] = true // yaml.v3 marks every key of the parent, << included
		w.merge(m, seen, merge, depth)
		if w.err != "" {
			return nil
		}
	}
	return m
}

// merge adds the keys of the merge value src to m, skipping seen ones, as
// yaml.v3's decoder.merge does.
func (w *walker) merge(m *omap, seen map[string]bool, src *yaml.Node, depth int) {
	const wantMap = "map merge requires map or sequence of maps as the value"
	switch src.Kind {
	case yaml.MappingNode:
		w.mergeMapping(m, seen, src, depth)
	case yaml.AliasNode:
		if src.Alias != nil && src.Alias.Kind != yaml.MappingNode {
			w.fail(src, wantMap)
			return
		}
		w.mergeMapping(m, seen, src, depth)
	case yaml.SequenceNode:
		for _, c := range src.Content {
			if c.Kind == yaml.AliasNode {
				if c.Alias != nil && c.Alias.Kind != yaml.MappingNode {
					w.fail(c, wantMap)
					return
				}
			} else if c.Kind != yaml.MappingNode {
				w.fail(c, wantMap)
				return
			}
			w.mergeMapping(m, seen, c, depth)
			if w.err != "" {
				return
			}
		}
	default:
		w.fail(src, wantMap)
	}
}

// mergeMapping merges one source (a mapping or an alias to one) into m:
// its own keys first, each unless already seen, then its own merge.
func (w *walker) mergeMapping(m *omap, seen map[string]bool, src *yaml.Node, depth int) {
	if !w.count(src) {
		return
	}
	if src.Kind == yaml.AliasNode {
		target, ok := w.enter(src)
		if !ok {
			return
		}
		w.mergeMapping(m, seen, target, depth)
		w.aliases = w.aliases[:len(w.aliases)-1]
		return
	}
	var merge *yaml.Node
	for i := 0; i+1 < len(src.Content); i += 2 {
		if isMergeKey(src.Content[i]) {
			merge = src.Content[i+1]
			continue
		}
		k, ok := w.key(src.Content[i])
		if !ok {
			return
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		v := w.value(src.Content[i+1], depth+1)
		if w.err != "" {
			return
		}
		m.Set(k, v)
	}
	if merge != nil {
		w.merge(m, seen, merge, depth)
	}
}

// key returns a mapping key as written: the text of a scalar (or of the
// scalar an alias names). A collection as a key is an error, as in yaml.v3.
func (w *walker) key(n *yaml.Node) (string, bool) {
	if !w.count(n) {
		return "", false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Style&yaml.TaggedStyle != 0 {
			w.scalar(n) // an explicit tag must still fit the text
		}
		return n.Value, w.err == ""
	case yaml.AliasNode:
		target, ok := w.enter(n)
		if !ok {
			return "", false
		}
		k, ok := w.key(target)
		w.aliases = w.aliases[:len(w.aliases)-1]
		return k, ok
	}
	w.fail(n, "invalid map key: a mapping or a sequence cannot be a key")
	return "", false
}

// shortYAMLTag is yaml.v3's shortTag.
func shortYAMLTag(tag string) string {
	if rest, ok := strings.CutPrefix(tag, "tag:yaml.org,2002:"); ok {
		return "!!" + rest
	}
	return tag
}

// scalar decodes a scalar node as yaml.v3's decoder.scalar does into an
// interface{}, with SPEC S6's differences (see the top of this file).
func (w *walker) scalar(n *yaml.Node) any {
	tag := shortYAMLTag(n.Tag)
	if tag == fmrules.TagStr || (tag == "" || tag == "!") && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value
	}
	if n.Style&yaml.TaggedStyle == 0 {
		tag = "" // resolved by yaml.v3's parser: resolve it again, with SPEC S6's differences
	}
	switch tag {
	case "", fmrules.TagBool, fmrules.TagInt, fmrules.TagFloat, fmrules.TagNull, fmrules.TagTimestamp:
	default:
		return n.Value // !!binary, !!merge, unknown tags: the text as written
	}
	rtag, v, unsigned := fmrules.ResolveScalar(tag, n.Value)
	switch tag {
	case "", rtag:
		return v
	case fmrules.TagFloat:
		if rtag == fmrules.TagInt && !unsigned {
			return v
		}
	}
	w.fail(n, "cannot decode "+rtag+" `"+n.Value+"` as a "+tag)
	return nil
}
