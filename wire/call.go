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
// exactly and a request is exactly one JSON value (jsondec.go decodes it;
// encoding/json, which reads the same struct tags, is not needed).
type Request struct {
	Op string `json:"op"`

	// The load context (S1) of every operation that works on discovered skills.
	Cwd     string  `json:"cwd,omitempty"`
	Home    string  `json:"home,omitempty"`
	Options RawJSON `json:"options,omitempty"` // decoded over DefaultOptions

	Dir    string `json:"dir,omitempty"`    // scanDir, validate
	Source string `json:"source,omitempty"` // scanDir: "<provider>:<level>"
	URL    string `json:"url,omitempty"`    // resolve
	Name   string `json:"name,omitempty"`   // listFiles, explain
	Text   string `json:"text,omitempty"`   // expandCommand

	ReadTool            *bool  `json:"readTool,omitempty"` // renderPrompt, default true
	Format              string `json:"format,omitempty"`   // renderPrompt, default "markdown"
	MaxChars            int    `json:"maxChars,omitempty"` // renderPrompt, 0 = no bound
	EnableSkillCommands *bool  `json:"enableSkillCommands,omitempty"`
}

// operation runs one decoded request and appends its JSON result to b.
type operation func(fsys core.FS, req *Request, b []byte) ([]byte, error)

// operations maps Request.Op to its implementation.
var operations = map[string]operation{
	"discover": callDiscover,
	"scanDir":  callScanDir,

	"resolve":       callResolve,       // S29-S32
	"listFiles":     callListFiles,     // S33
	"renderPrompt":  callRenderPrompt,  // S34
	"expandCommand": callExpandCommand, // S35, S36
	"commands":      callCommands,      // S37
	"contextFiles":  callContextFiles,  // S38, S39
	"validate":      callValidate,      // S40
	"explain":       callExplain,       // S41
}

// Call decodes a JSON [Request], runs it against fsys and returns the JSON
// result, or {"error":{"code","message"}} when it fails. It never panics:
// a panic inside the engine is a bug and comes back as code INTERNAL.
func Call(fsys core.FS, request []byte) []byte {
	return AppendCall(nil, fsys, request)
}

// AppendCall is [Call] appending to b, so a host can reuse one buffer.
func AppendCall(b []byte, fsys core.FS, request []byte) (out []byte) {
	start := len(b)
	defer func() {
		if r := recover(); r != nil {
			out = appendError(b[:start], &core.Error{Code: core.CodeInternal, Message: "internal error: " + panictext.Of(r)})
		}
	}()
	var req Request
	if err := decodeRequest(request, &req); err != nil {
		return appendError(b, &core.Error{Code: core.CodeBadRequest, Message: "bad request: " + err.Error()})
	}
	op := operations[req.Op]
	if op == nil {
		return appendError(b, &core.Error{Code: core.CodeBadRequest, Message: "bad request: unknown op " + strconv.Quote(req.Op)})
	}
	res, err := op(fsys, &req, b)
	if err != nil {
		e, ok := err.(*core.Error)
		if !ok {
			e = &core.Error{Code: core.CodeInternal, Message: err.Error()}
		}
		return appendError(b[:start], e)
	}
	return res
}

// options decodes req.Options over [core.DefaultOptions].
func (req *Request) options() (core.Options, error) {
	opts := core.DefaultOptions()
	if len(req.Options) == 0 {
		return opts, nil
	}
	if err := decodeOptions(req.Options, &opts); err != nil {
		return opts, &core.Error{Code: core.CodeInvalidArgument, Message: "invalid options: " + err.Error()}
	}
	return opts, nil
}

// discover runs the request's load context through [core.Discover].
func (req *Request) discover(fsys core.FS) (*core.Result, error) {
	opts, err := req.options()
	if err != nil {
		return nil, err
	}
	return core.Discover(fsys, req.Cwd, req.Home, opts)
}
