package core

import "strconv"

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
type operation func(fsys FS, req *Request, b []byte) ([]byte, error)

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
func Call(fsys FS, request []byte) []byte {
	return AppendCall(nil, fsys, request)
}

// AppendCall is [Call] appending to b, so a host can reuse one buffer.
func AppendCall(b []byte, fsys FS, request []byte) (out []byte) {
	start := len(b)
	defer func() {
		if r := recover(); r != nil {
			out = errorf(CodeInternal, "internal error: "+panicText(r)).AppendJSON(b[:start])
		}
	}()
	var req Request
	if err := decodeRequest(request, &req); err != nil {
		return errorf(CodeBadRequest, "bad request: "+err.Error()).AppendJSON(b)
	}
	op := operations[req.Op]
	if op == nil {
		return errorf(CodeBadRequest, "bad request: unknown op "+strconv.Quote(req.Op)).AppendJSON(b)
	}
	res, err := op(fsys, &req, b)
	if err != nil {
		e, ok := err.(*Error)
		if !ok {
			e = errorf(CodeInternal, err.Error())
		}
		return e.AppendJSON(b[:start])
	}
	return res
}

// options decodes req.Options over [DefaultOptions].
func (req *Request) options() (Options, error) {
	opts := DefaultOptions()
	if len(req.Options) == 0 {
		return opts, nil
	}
	if err := decodeOptions(req.Options, &opts); err != nil {
		return opts, errorf(CodeInvalidArgument, "invalid options: "+err.Error())
	}
	return opts, nil
}

// discover runs the request's load context through [Discover].
func (req *Request) discover(fsys FS) (*Result, error) {
	opts, err := req.options()
	if err != nil {
		return nil, err
	}
	return Discover(fsys, req.Cwd, req.Home, opts)
}

func callDiscover(fsys FS, req *Request, b []byte) ([]byte, error) {
	res, err := req.discover(fsys)
	if err != nil {
		return nil, err
	}
	return res.AppendJSON(b), nil
}

func callScanDir(fsys FS, req *Request, b []byte) ([]byte, error) {
	res, err := ScanDir(fsys, req.Dir, req.Source)
	if err != nil {
		return nil, err
	}
	return res.AppendJSON(b), nil
}

// panicText is the message of a recovered panic value.
func panicText(r any) string {
	switch r := r.(type) {
	case error:
		return r.Error()
	case string:
		return r
	case interface{ String() string }:
		return r.String()
	}
	return "a panic"
}
