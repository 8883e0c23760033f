package wire

import (
	"strconv"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/internal/panictext"
)

// Request is one engine call in JSON, the form every host uses (the wasm
// export, the JS package, the conformance corpus). Op selects the
// operation; the other fields are its arguments. Unknown fields are an
// error, so a misspelt option is reported rather than ignored. Keys match
// exactly and a request is exactly one JSON value (decode.go decodes it;
// encoding/json, which reads the same struct tags, is not needed).
type Request struct {
	Op string `json:"op"`

	// The load context (S1) of every operation that works on discovered skills.
	Cwd     string  `json:"cwd,omitempty"`
	Home    string  `json:"home,omitempty"`
	Options RawJSON `json:"options,omitempty"` // decoded over core.DefaultOptions

	Dir    string   `json:"dir,omitempty"`    // scanDir, validate
	Source string   `json:"source,omitempty"` // scanDir: "<provider>:<level>"
	URL    string   `json:"url,omitempty"`    // resolve
	Name   string   `json:"name,omitempty"`   // listFiles, explain, activate
	Text   string   `json:"text,omitempty"`   // expandCommand
	Paths  []string `json:"paths,omitempty"`  // match

	ReadTool            *bool  `json:"readTool,omitempty"` // renderPrompt, default true
	Format              string `json:"format,omitempty"`   // renderPrompt, default "markdown"
	MaxChars            int    `json:"maxChars,omitempty"` // renderPrompt, 0 = no bound
	EnableSkillCommands *bool  `json:"enableSkillCommands,omitempty"`

	// ASCIIReply asks for the reply in the ASCII transport (ascii.go): the
	// same JSON value, every non-ASCII character escaped. Any op may be
	// asked; it shapes how the reply travels, not what it says, so no op
	// lists it among its fields (schema_test.go's transportFields).
	ASCIIReply bool `json:"asciiReply,omitempty"`
}

// Call decodes a JSON [Request], runs it against fsys and returns the JSON
// result, or {"error":{"code","message"}} when it fails. It never panics:
// a panic inside the engine is a bug and comes back as code INTERNAL. A
// request with asciiReply gets the reply in the ASCII transport (ascii.go).
func Call(fsys core.FS, request []byte) []byte {
	return AppendCall(nil, fsys, request)
}

// AppendCall is [Call] appending to b, so a host can reuse one buffer.
func AppendCall(b []byte, fsys core.FS, request []byte) []byte {
	out, _, _ := appendCall(b, fsys, request, nil)
	return out
}

// discoverHooks are what a Session changes in a discover op's call.
type discoverHooks struct {
	buffer []byte                // the reply goes here, in place of b
	record func(core.FS) core.FS // wraps the FS the discovery reads through
}

// appendCall is AppendCall; with hooks, a discover op's reply goes to
// hooks.buffer and its discovery reads through hooks.record (Session).
// failed reports an error reply, discover a discover op.
func appendCall(b []byte, fsys core.FS, request []byte, hooks *discoverHooks) (out []byte, failed, discover bool) {
	start := len(b)
	defer func() {
		if r := recover(); r != nil {
			out, failed = appendError(b[:start], &core.Error{Code: core.CodeInternal, Message: "internal error: " + panictext.Of(r)}), true
		}
	}()
	var req Request
	if err := decodeRequest(request, &req); err != nil {
		return appendError(b, &core.Error{Code: core.CodeBadRequest, Message: "bad request: " + err.Error()}), true, false
	}
	op, ok := lookupOperation(req.Op)
	if !ok {
		return appendError(b, &core.Error{Code: core.CodeBadRequest, Message: "bad request: unknown op " + strconv.Quote(req.Op)}), true, false
	}
	if hooks != nil && req.Op == "discover" {
		b, start, discover = hooks.buffer, len(hooks.buffer), true
		fsys = hooks.record(fsys)
	}
	res, err := op.run(fsys, &req, b)
	if err != nil {
		e, ok := err.(*core.Error)
		if !ok {
			e = &core.Error{Code: core.CodeInternal, Message: err.Error()}
		}
		res, failed = appendError(b[:start], e), true
	}
	if req.ASCIIReply {
		res = escapeNonASCII(res, start)
	}
	return res, failed, discover
}
