package runtimetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/internal/hosttest"
	"github.com/skilldex/skilldex/wasmhost"
	"github.com/skilldex/skilldex/wire"
)

// typedCall runs req through the typed method of its op and returns the
// JSON of the result (or of the *core.Error); ok is false for a request
// the typed API cannot express (an unknown field, op or option key).
func typedCall(ctx context.Context, e *wasmhost.Engine, request []byte) (out []byte, ok bool, err error) {
	var req wire.Request
	dec := json.NewDecoder(bytes.NewReader(request))
	dec.DisallowUnknownFields()
	if dec.Decode(&req) != nil {
		return nil, false, nil
	}
	l := wasmhost.Load{Cwd: req.Cwd, Home: req.Home}
	if req.Options != nil {
		opts := core.DefaultOptions()
		// core's json keys, and trustedProject, the negation of
		// UntrustedProject (S68).
		asSent := struct {
			*core.Options
			TrustedProject *bool `json:"trustedProject"`
		}{Options: &opts}
		dec := json.NewDecoder(bytes.NewReader(req.Options))
		dec.DisallowUnknownFields()
		if dec.Decode(&asSent) != nil {
			return nil, false, nil
		}
		if asSent.TrustedProject != nil {
			opts.UntrustedProject = !*asSent.TrustedProject
		}
		l.Options = &opts
	}
	orTrue := func(b *bool) bool { return b == nil || *b }
	var res any // a core result type: wire.AppendJSON writes its reply
	switch req.Op {
	case "discover":
		res, err = nilOr(e.Discover(ctx, l))
	case "scanDir":
		res, err = nilOr(e.ScanDir(ctx, req.Dir, req.Source))
	case "resolve":
		res, err = nilOr(e.Resolve(ctx, l, req.URL))
	case "listFiles":
		res, err = nilOr(e.ListFiles(ctx, l, req.Name))
	case "renderPrompt":
		res, err = nilOr(e.RenderPrompt(ctx, l, core.PromptOptions{ReadTool: orTrue(req.ReadTool), Format: req.Format, MaxChars: req.MaxChars}))
	case "expandCommand":
		var x *core.Expansion
		x, err = e.ExpandCommand(ctx, l, req.Text, orTrue(req.EnableSkillCommands))
		res = x // a nil *Expansion is "null"
	case "commands":
		res, err = nilOr(e.Commands(ctx, l))
	case "contextFiles":
		res, err = nilOr(e.ContextFiles(ctx, l))
	case "validate":
		res, err = nilOr(e.Validate(ctx, req.Dir))
	case "explain":
		res, err = nilOr(e.Explain(ctx, l, req.Name))
	case "match":
		res, err = nilOr(e.Match(ctx, l, req.Paths))
	case "activate":
		res, err = nilOr(e.Activate(ctx, l, req.Name))
	case "toolDefinition":
		var t *core.Tool
		t, err = e.ActivationTool(ctx, l)
		res = t // a nil *Tool is "null"
	default:
		return nil, false, nil
	}
	var ce *core.Error
	if errors.As(err, &ce) && ce.Code != core.CodeInternal {
		return wire.AppendJSON(nil, ce), true, nil
	}
	if err != nil {
		return nil, true, err
	}
	return wire.AppendJSON(nil, res), true, nil
}

func nilOr[T any](v T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// TestTyped_corpus runs every corpus case the typed API can express
// through its typed method, and requires the decoded result, encoded again
// by core, to be the native reply byte for byte: the typed decoding loses
// nothing (key order of frontmatter, absent vs empty arrays, null).
func TestTyped_corpus(t *testing.T) {
	ctx := context.Background()
	swap := &hosttest.SwapFS{}
	eng := newEngine(t, swap)
	ops := map[string]int{}
	for _, c := range (hosttest.Corpus{Dir: corpusDir}).Cases(t) {
		swap.FS = c.MemFS()
		got, ok, err := typedCall(ctx, eng, c.Request)
		if !ok {
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Path, err)
			continue
		}
		var op struct{ Op string }
		json.Unmarshal(c.Request, &op)
		ops[op.Op]++
		if native := wire.Call(c.MemFS(), c.Request); !bytes.Equal(got, native) {
			t.Errorf("%s: typed result differs from native\ntyped:  %s\nnative: %s", c.Path, got, native)
		}
	}
	for _, op := range []string{"discover", "scanDir", "resolve", "listFiles", "renderPrompt", "expandCommand", "commands", "contextFiles", "validate", "explain"} {
		if ops[op] == 0 {
			t.Logf("no corpus case exercises the typed %s", op)
		}
	}
}
