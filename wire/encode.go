package wire

import (
	"encoding/hex"
	"slices"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/internal/jsontext"
)

// AppendJSON appends the JSON form of an engine result, the reply of the
// operation that returns it (SPEC section 12): a *core.Result,
// *core.ScanResult, *core.Resource, *core.FileList, *core.Prompt,
// *core.Expansion (null when nil), *core.CommandList, *core.ContextResult,
// *core.Validation, *core.Explanation, *core.MatchResult,
// *core.Activation, *core.Tool (null when nil), *core.Skill,
// *core.AgentTable, *core.WhereResult or *core.Error. Any
// other type is a bug in the caller, and panics.
func AppendJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case *core.Result:
		return appendResult(b, v)
	case *core.ScanResult:
		return appendScanResult(b, v)
	case *core.Resource:
		return appendResource(b, v)
	case *core.FileList:
		return appendFileList(b, v)
	case *core.Prompt:
		return appendPrompt(b, v)
	case *core.Expansion:
		return appendExpansion(b, v)
	case *core.CommandList:
		return appendCommandList(b, v)
	case *core.ContextResult:
		return appendContextResult(b, v)
	case *core.Validation:
		return appendValidation(b, v)
	case *core.Explanation:
		return appendExplanation(b, v)
	case *core.MatchResult:
		return appendMatchResult(b, v)
	case *core.Activation:
		return appendActivation(b, v)
	case *core.Tool:
		return appendTool(b, v)
	case *core.Skill:
		return appendSkill(b, v)
	case *core.AgentTable:
		return appendAgentTable(b, v)
	case *core.WhereResult:
		return appendWhere(b, v)
	case *core.Error:
		return appendError(b, v)
	}
	panic("wire: AppendJSON of a type that is not an engine result")
}

// writer is a [jsontext.Writer] that also writes the parts replies share:
// skills, warnings and frontmatter values.
type writer struct {
	jsontext.Writer
}

func newWriter(b []byte) writer { return writer{jsontext.Writer{B: b}} }

// value writes a frontmatter value (see [jsontext.WriteValue]).
func (w *writer) value(v core.Value) { jsontext.WriteValue(&w.Writer, v) }

// appendExpansion appends {"message","name","path","args"}, or null for a nil
// *Expansion: text that is not a skill command (SPEC section 12).
func appendExpansion(b []byte, e *core.Expansion) []byte {
	if e == nil {
		return append(b, "null"...)
	}
	w := newWriter(b)
	w.RawStr(`{"message":`, e.Message)
	w.RawStr(`,"name":`, e.Name)
	w.RawStr(`,"path":`, e.Path)
	w.RawStr(`,"args":`, e.Args)
	w.Byte('}')
	return w.B
}

// appendCommandList appends {"commands":[{"name","description","path"}]} (SPEC
// section 12).
func appendCommandList(b []byte, l *core.CommandList) []byte {
	w := newWriter(b)
	w.Raw(`{"commands":`)
	list(&w, l.Commands, func(w *writer, c *core.Command) {
		w.RawStr(`{"name":`, c.Name)
		w.RawStr(`,"description":`, c.Description)
		w.RawStr(`,"path":`, c.Path)
		w.Byte('}')
	})
	w.Byte('}')
	return w.B
}

// appendContextResult appends {"files":[{"path","content","level","depth"}]}, depth
// null for the user file (SPEC section 12), then "warnings" when there are
// some (S43, S45).
func appendContextResult(b []byte, r *core.ContextResult) []byte {
	w := newWriter(b)
	w.Raw(`{"files":`)
	list(&w, r.Files, func(w *writer, f *core.ContextFile) {
		w.RawStr(`{"path":`, f.Path)
		w.RawStr(`,"content":`, f.Content)
		w.RawStr(`,"level":`, f.Level)
		w.Raw(`,"depth":`)
		if f.Depth < 0 {
			w.Raw("null")
		} else {
			w.Num(float64(f.Depth))
		}
		w.Byte('}')
	})
	if len(r.Warnings) > 0 { // S43, S45: present only when there are some
		w.Raw(`,"warnings":`)
		list(&w, r.Warnings, (*writer).warning)
	}
	w.Byte('}')
	return w.B
}

// appendError appends {"error":{"code","message"}} (SPEC section 12).
func appendError(b []byte, e *core.Error) []byte {
	w := newWriter(b)
	w.RawStr(`{"error":{"code":`, e.Code)
	w.RawStr(`,"message":`, e.Message)
	w.Raw("}}")
	return w.B
}

// appendExplanation appends {"name","winner","candidates":[{"filePath","source",
// "outcome","reason"?}]}, winner null when no copy loaded (SPEC section 12).
func appendExplanation(b []byte, e *core.Explanation) []byte {
	w := newWriter(b)
	w.RawStr(`{"name":`, e.Name)
	w.Raw(`,"winner":`)
	if e.Winner == nil {
		w.Raw("null")
	} else {
		w.skill(e.Winner)
	}
	w.Raw(`,"candidates":`)
	list(&w, e.Candidates, func(w *writer, c *core.Candidate) {
		w.RawStr(`{"filePath":`, c.FilePath)
		w.RawStr(`,"source":`, c.Source)
		w.RawStr(`,"outcome":`, c.Outcome)
		if c.Reason != "" {
			w.RawStr(`,"reason":`, c.Reason)
		}
		w.Byte('}')
	})
	w.Byte('}')
	return w.B
}

// appendPrompt appends {"text","format","omitted","shortened"} (SPEC section 12).
func appendPrompt(b []byte, p *core.Prompt) []byte {
	w := newWriter(b)
	w.RawStr(`{"text":`, p.Text)
	w.RawStr(`,"format":`, p.Format)
	w.Raw(`,"omitted":`)
	w.Strings(nonNil(p.Omitted))
	w.Raw(`,"shortened":`)
	w.Strings(nonNil(p.Shortened))
	w.Byte('}')
	return w.B
}

// nonNil is list, or an empty list for nil: the reply has [] either way.
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// appendResource appends {"url","content","contentType","size","sourcePath"}
// (SPEC section 12).
func appendResource(b []byte, r *core.Resource) []byte {
	w := newWriter(b)
	w.RawStr(`{"url":`, r.URL)
	w.RawStr(`,"content":`, r.Content)
	w.RawStr(`,"contentType":`, r.ContentType)
	w.Raw(`,"size":`)
	w.Num(float64(r.Size))
	w.RawStr(`,"sourcePath":`, r.SourcePath)
	w.Byte('}')
	return w.B
}

// appendActivation appends {"name","baseDir","content","resources"} (SPEC
// S69, S70), then "truncated": true when the listing stopped at a bound.
func appendActivation(b []byte, a *core.Activation) []byte {
	w := newWriter(b)
	w.RawStr(`{"name":`, a.Name)
	w.RawStr(`,"baseDir":`, a.BaseDir)
	w.RawStr(`,"content":`, a.Content)
	w.Raw(`,"resources":`)
	w.Strings(nonNil(a.Resources))
	if a.Truncated {
		w.Raw(`,"truncated":true`)
	}
	w.Byte('}')
	return w.B
}

// appendTool appends the activation tool's definition (SPEC S71): a JSON
// Schema tool in the shape of MCP's tools ("inputSchema"), or null when
// there is no tool.
func appendTool(b []byte, t *core.Tool) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	w := newWriter(b)
	w.RawStr(`{"name":`, t.Name)
	w.RawStr(`,"description":`, t.Description)
	w.RawStr(`,"inputSchema":{"type":"object","properties":{"name":{"type":"string","description":`, t.NameDescription)
	w.Raw(`,"enum":`)
	w.Strings(nonNil(t.Names))
	w.Raw(`}},"required":["name"],"additionalProperties":false}}`)
	return w.B
}

// appendFileList appends {"name","baseDir","files"} (SPEC section 12), then
// "truncated": true past 10000 files (S45).
func appendFileList(b []byte, l *core.FileList) []byte {
	w := newWriter(b)
	w.RawStr(`{"name":`, l.Name)
	w.RawStr(`,"baseDir":`, l.BaseDir)
	w.Raw(`,"files":`)
	w.Strings(l.Files)
	if l.Truncated { // S45
		w.Raw(`,"truncated":true`)
	}
	w.Byte('}')
	return w.B
}

// appendSkill appends the skill's JSON object, keys in SPEC order.
func appendSkill(b []byte, s *core.Skill) []byte {
	w := newWriter(b)
	w.skill(s)
	return w.B
}

// skill writes a skill's JSON object, keys in SPEC order (section 5).
func (w *writer) skill(s *core.Skill) {
	w.RawStr(`{"name":`, s.Name)
	w.RawStr(`,"description":`, s.Description)
	const filePathKey = `,"filePath":`
	fileStart := len(w.B) + len(filePathKey)
	w.RawStr(filePathKey, s.FilePath)
	fileEnd := len(w.B)
	w.RawStr(`,"baseDir":`, s.BaseDir)
	w.RawStr(`,"source":`, s.Source)
	w.RawStr(`,"provider":`, s.Provider)
	w.RawStr(`,"providerName":`, s.ProviderName)
	w.RawStr(`,"level":`, s.Level)
	if s.SourcePath == s.FilePath { // usually: its JSON is copied, not escaped again
		w.B = append(append(w.B, `,"sourcePath":`...), w.B[fileStart:fileEnd]...)
	} else {
		w.RawStr(`,"sourcePath":`, s.SourcePath)
	}
	if s.Frontmatter == nil {
		w.Raw(`,"frontmatter":{}`)
	} else {
		w.Raw(`,"frontmatter":`)
		w.value(s.Frontmatter)
	}
	if s.Contexts != nil || s.Globs != nil || s.AlwaysApply != nil || s.DisableModelInvocation || s.DisableUserInvocation {
		w.skillOptional(s)
	}
	w.Byte('}')
}

// skillOptional writes the members a skill has only when its frontmatter
// sets them. Out of line: few skills have them, and what skill does not
// hold V8 does not optimise with it.
//
//go:noinline
func (w *writer) skillOptional(s *core.Skill) {
	if s.Contexts != nil {
		w.Raw(`,"contexts":`)
		w.Strings(s.Contexts)
	}
	if s.Globs != nil {
		w.Raw(`,"globs":`)
		w.Strings(s.Globs)
	}
	if s.AlwaysApply != nil {
		w.Raw(`,"alwaysApply":`)
		w.Bool(*s.AlwaysApply)
	}
	if s.DisableModelInvocation { // S47
		w.Raw(`,"disableModelInvocation":true`)
	}
	if s.DisableUserInvocation {
		w.Raw(`,"userInvocable":false`)
	}
}

// warning writes {"skillPath", then the diagnostic's fields} (SPEC S27,
// S73).
func (w *writer) warning(x *core.Warning) {
	w.RawStr(`{"skillPath":`, x.SkillPath)
	w.RawStr(`,"path":`, x.Path)
	w.diagnosticTail(&x.Diagnostic)
	w.Byte('}')
}

// diagnostic writes {"path","line"?,"column"?,"code","severity","message","fix"?}
// (SPEC section 12, S73).
func (w *writer) diagnostic(d *core.Diagnostic) {
	w.RawStr(`{"path":`, d.Path)
	w.diagnosticTail(d)
	w.Byte('}')
}

// diagnosticTail writes a diagnostic's fields after "path".
func (w *writer) diagnosticTail(d *core.Diagnostic) {
	if d.Line > 0 {
		w.Raw(`,"line":`)
		w.Num(float64(d.Line))
	}
	if d.Column > 0 {
		w.Raw(`,"column":`)
		w.Num(float64(d.Column))
	}
	w.RawStr(`,"code":`, d.Code)
	w.RawStr(`,"severity":`, d.Severity)
	w.RawStr(`,"message":`, d.Message)
	if d.Fix != "" {
		w.RawStr(`,"fix":`, d.Fix)
	}
}

// list writes items as a JSON array, each item with write. Out of line,
// like the size hints: a loop inlined into a large function (appendResult)
// makes V8 optimise that whole function within one call.
//
//go:noinline
func list[T any](w *writer, items []T, write func(*writer, *T)) {
	w.Byte('[')
	for i := range items {
		if i > 0 {
			w.Byte(',')
		}
		write(w, &items[i])
	}
	w.Byte(']')
}

// appendResult appends {"skills","warnings","shadowed","digest"} (SPEC section
// 12, S54).
func appendResult(b []byte, r *core.Result) []byte {
	n := skillsSizeHint(r.Skills) + warningsSizeHint(r.Warnings) + shadowedSizeHint(r.Shadowed) + 64
	start := len(b)
	w := newWriter(slices.Grow(b, n+len(`,"digest":"0123456789abcdef"`)))
	w.Raw(`{"skills":`)
	list(&w, r.Skills, (*writer).skill)
	w.Raw(`,"warnings":`)
	list(&w, r.Warnings, (*writer).warning)
	w.Raw(`,"shadowed":`)
	list(&w, r.Shadowed, func(w *writer, x *core.Shadowed) {
		w.RawStr(`{"name":`, x.Name)
		w.RawStr(`,"filePath":`, x.FilePath)
		w.RawStr(`,"source":`, x.Source)
		w.RawStr(`,"reason":`, x.Reason)
		if x.Winner != "" {
			w.RawStr(`,"winner":`, x.Winner)
		}
		w.Byte('}')
	})
	w.Byte('}')
	return appendDigest(w.B, start)
}

// appendDigest ends the discover reply that starts at b[start:] with its
// digest (SPEC S54): the first 16 hex digits of the SHA-256 of the reply's
// bytes so far, the object without "digest", as `,"digest":"…"}`.
func appendDigest(b []byte, start int) []byte {
	var sum [32]byte
	if data := b[start:]; hostSHA256 == nil || len(data) < hostSHA256Min || !hostSHA256(data, &sum) {
		sum = sum256(data)
	}
	b = append(b[:len(b)-1], `,"digest":"`...)
	b = hex.AppendEncode(b, sum[:8])
	return append(b, `"}`...)
}

// hostSHA256, when set, is the SHA-256 of the host running the module
// (wasm/ABI.md#sha256): it writes data's hash to sum and reports whether
// it did. In the module sum256 hashes a discovery's reply (about 1 KB a
// skill) at 6-7 ms a MiB, a tenth of a warm 1,000-skill discovery in Node,
// where node:crypto takes 0.7 ms. The bytes are the same either way.
var hostSHA256 func(data []byte, sum *[32]byte) bool

// hostSHA256Min is the least reply hashed by hostSHA256: below it the
// round trip to the host costs about what the hashing saves.
const hostSHA256Min = 4 << 10

// UseSHA256 makes the digests of replies of 4 KiB and more come from f
// when it answers (the wasm module sets the host's sha256 import); sum256
// hashes the rest, and whatever f declines.
func UseSHA256(f func(data []byte, sum *[32]byte) bool) { hostSHA256 = f }

// Digest is the S54 digest of a discovery: the "digest" member of its
// discover reply, for Go programs that call core.Discover directly.
func Digest(r *core.Result) string {
	b := appendResult(nil, r)
	const tail = len(`"}`)
	return string(b[len(b)-tail-16 : len(b)-tail])
}

// appendMatchResult appends {"skills":[{"name","reason","paths"}],"warnings"}
// (SPEC S55).
func appendMatchResult(b []byte, r *core.MatchResult) []byte {
	w := newWriter(b)
	w.Raw(`{"skills":`)
	list(&w, r.Skills, func(w *writer, m *core.SkillMatch) {
		w.RawStr(`{"name":`, m.Name)
		w.RawStr(`,"reason":`, m.Reason)
		w.Raw(`,"paths":`)
		list(w, m.Paths, func(w *writer, p *string) { w.Str(*p) })
		w.Byte('}')
	})
	w.Raw(`,"warnings":`)
	list(&w, r.Warnings, (*writer).warning)
	w.Byte('}')
	return w.B
}

// appendScanResult appends {"skills","warnings"} (SPEC section 12).
func appendScanResult(b []byte, r *core.ScanResult) []byte {
	w := newWriter(slices.Grow(b, skillsSizeHint(r.Skills)+warningsSizeHint(r.Warnings)+32))
	w.Raw(`{"skills":`)
	list(&w, r.Skills, (*writer).skill)
	w.Raw(`,"warnings":`)
	list(&w, r.Warnings, (*writer).warning)
	w.Byte('}')
	return w.B
}

// skillsSizeHint is about the size of the skills' JSON (a little more,
// unless strings need escapes), so that a reply's buffer is allocated once:
// growing it step by step allocated five times its size (50 MB for 10000
// skills).
func skillsSizeHint(list []core.Skill) int {
	n := 2
	for i := range list {
		s := &list[i]
		n += 200 + len(s.Name) + len(s.Description) + len(s.FilePath) + len(s.BaseDir) + len(s.Source) +
			len(s.Provider) + len(s.ProviderName) + len(s.Level) + len(s.SourcePath) + jsontext.ValueSize(s.Frontmatter)
		for _, c := range s.Contexts {
			n += len(c) + 3
		}
		for _, g := range s.Globs {
			n += len(g) + 3
		}
	}
	return n
}

// warningsSizeHint is about the size of the warnings' JSON.
//
//go:noinline
func warningsSizeHint(list []core.Warning) int {
	n := 2
	for _, x := range list {
		n += 96 + len(x.SkillPath) + len(x.Path) + len(x.Code) + len(x.Message) + len(x.Fix)
	}
	return n
}

// shadowedSizeHint is about the size of the shadowed entries' JSON.
//
//go:noinline
func shadowedSizeHint(list []core.Shadowed) int {
	n := 0
	for i := range list {
		x := &list[i]
		n += 64 + len(x.Name) + len(x.FilePath) + len(x.Source) + len(x.Reason) + len(x.Winner)
	}
	return n
}

// appendValidation appends {"dir","diagnostics":[Diagnostic]} (SPEC section
// 12, S73).
func appendValidation(b []byte, r *core.Validation) []byte {
	w := newWriter(b)
	w.validation(r)
	return w.B
}

// validation writes {"dir","diagnostics",["skills"]}; "skills" only for a
// skills root (S51).
func (w *writer) validation(r *core.Validation) {
	w.RawStr(`{"dir":`, r.Dir)
	w.Raw(`,"diagnostics":`)
	list(w, r.Diagnostics, (*writer).diagnostic)
	if r.Skills != nil {
		w.Raw(`,"skills":`)
		list(w, r.Skills, (*writer).validation)
	}
	w.Byte('}')
}

// appendAgentTable appends {"agents":[{"id","displayName","projectDirs",
// "projectWalk","userDirs","userFirst","requireDescription","env",
// "sources"}]} (S64): env lists the variables the user folders read.
func appendAgentTable(b []byte, t *core.AgentTable) []byte {
	w := newWriter(b)
	w.Raw(`{"agents":`)
	list(&w, t.Agents, func(w *writer, a *core.AgentProfile) {
		w.RawStr(`{"id":`, a.ID)
		w.RawStr(`,"displayName":`, a.DisplayName)
		w.Raw(`,"projectDirs":`)
		w.Strings(nonNil(a.ProjectDirs))
		w.RawStr(`,"projectWalk":`, a.ProjectWalk)
		w.Raw(`,"userDirs":`)
		w.Strings(nonNil(a.UserDirs))
		w.Raw(`,"userFirst":`)
		w.Bool(a.UserFirst)
		w.Raw(`,"requireDescription":`)
		w.Bool(a.RequireDescription)
		w.Raw(`,"env":`)
		w.Strings(nonNil(a.EnvNames()))
		w.Raw(`,"sources":`)
		w.Strings(nonNil(a.Sources))
		w.Byte('}')
	})
	w.Byte('}')
	return w.B
}

// appendWhere appends {"dir","agents":[{"agent","displayName","loaded",
// "name"?,"filePath"?,"source"?,"reason"?,"winner"?}]} (S67): name,
// filePath and source when the agent reaches the folder, reason when it
// reaches it and does not load it, winner for the reasons name and
// realpath.
func appendWhere(b []byte, r *core.WhereResult) []byte {
	w := newWriter(b)
	w.RawStr(`{"dir":`, r.Dir)
	w.Raw(`,"agents":`)
	list(&w, r.Agents, func(w *writer, a *core.AgentReach) {
		w.RawStr(`{"agent":`, a.Agent)
		w.RawStr(`,"displayName":`, a.DisplayName)
		w.Raw(`,"loaded":`)
		w.Bool(a.Loaded)
		if a.FilePath != "" {
			w.RawStr(`,"name":`, a.Name)
			w.RawStr(`,"filePath":`, a.FilePath)
			w.RawStr(`,"source":`, a.Source)
		}
		if a.Reason != "" {
			w.RawStr(`,"reason":`, a.Reason)
		}
		if a.Winner != "" {
			w.RawStr(`,"winner":`, a.Winner)
		}
		w.Byte('}')
	})
	w.Byte('}')
	return w.B
}
