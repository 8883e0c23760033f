package wire

import (
	"context"
	"sync/atomic"

	"github.com/skilldex/skilldex/core"
)

// An operation is one value of Request.Op: the request fields it reads
// besides "op" (the schema js/index.d.ts must agree with, checked by
// schema_test.go) and how it runs.
// namedOperation is an operation and its Request.Op.
type namedOperation struct {
	name string
	operation
}

// lookupOperation returns the operation of Request.Op name.
func lookupOperation(name string) (operation, bool) {
	for _, o := range operations {
		if o.name == name {
			return o.operation, true
		}
	}
	return operation{}, false
}

type operation struct {
	fields []string
	// run runs a decoded request and appends the reply to b.
	run func(fsys core.FS, req *Request, b []byte) ([]byte, error)
}

// loadContext are the fields of S1's load context, which every operation
// on discovered skills reads.
var loadContext = []string{"cwd", "home", "options"}

// operations lists each Request.Op with its operation. A new operation is
// an engine function in core, an entry here with its serialiser in
// encode.go, its request in js/index.d.ts and js/index.js, and a corpus
// case (ARCHITECTURE.md). A list, not a map: a map built by a package
// initialiser would be stale in the wasm module, whose initialised memory
// is a build-time snapshot and whose hash key is drawn afresh by each
// instance (wasm/ABI.md#the-module).
//
// A request carries no context: wire.Call runs it to its end, so every
// operation gets context.Background(). A host stops a call from outside
// (wasmhost's ctx stops the module at its next import; the JS worker is
// terminated); a Go program that wants cancellation calls core itself.
var operations = []namedOperation{
	{"discover", onSkills(nil, func(_ core.FS, _ *Request, res *core.Result) (*core.Result, error) {
		return res, nil
	}, appendResult)}, // S1-S27
	{"scanDir", operation{[]string{"dir", "source"}, func(fsys core.FS, req *Request, b []byte) ([]byte, error) {
		return reply(b, appendScanResult)(core.ScanDir(context.Background(), fsys, req.Dir, req.Source))
	}}}, // S28
	{"resolve", onSkills([]string{"url"}, func(fsys core.FS, req *Request, res *core.Result) (*core.Resource, error) {
		return core.Resolve(context.Background(), fsys, req.URL, res.Skills)
	}, appendResource)}, // S29-S32
	{"listFiles", onSkills([]string{"name"}, func(fsys core.FS, req *Request, res *core.Result) (*core.FileList, error) {
		return core.ListFiles(context.Background(), fsys, req.Name, res.Skills)
	}, appendFileList)}, // S33
	{"renderPrompt", onSkills([]string{"readTool", "format", "maxChars"}, func(_ core.FS, req *Request, res *core.Result) (*core.Prompt, error) {
		opts, _ := req.options() // discover has decoded them; S53 drops by their provider order
		return core.RenderPrompt(res.Skills, core.PromptOptions{ReadTool: orTrue(req.ReadTool), Format: req.Format,
			MaxChars: req.MaxChars, SourceOrder: core.SourceOrder(opts)})
	}, appendPrompt)}, // S34
	{"expandCommand", onSkills([]string{"text", "enableSkillCommands"}, func(fsys core.FS, req *Request, res *core.Result) (*core.Expansion, error) {
		return core.ExpandCommand(context.Background(), fsys, req.Text, res.Skills, orTrue(req.EnableSkillCommands))
	}, appendExpansion)}, // S35, S36
	{"commands", onSkills(nil, func(_ core.FS, _ *Request, res *core.Result) (*core.CommandList, error) {
		return core.Commands(res.Skills), nil
	}, appendCommandList)}, // S37
	{"contextFiles", operation{loadContext, func(fsys core.FS, req *Request, b []byte) ([]byte, error) {
		opts, err := req.options()
		if err != nil {
			return nil, err
		}
		return reply(b, appendContextResult)(core.ContextFilesFor(context.Background(), fsys, req.Cwd, req.Home, opts))
	}}}, // S38, S39, S68
	{"validate", operation{[]string{"dir"}, func(fsys core.FS, req *Request, b []byte) ([]byte, error) {
		return reply(b, appendValidation)(core.Validate(context.Background(), fsys, req.Dir))
	}}}, // S40
	{"explain", onSkills([]string{"name"}, func(_ core.FS, req *Request, res *core.Result) (*core.Explanation, error) {
		return core.Explain(req.Name, res)
	}, appendExplanation)}, // S41
	{"match", onSkills([]string{"paths"}, func(_ core.FS, req *Request, res *core.Result) (*core.MatchResult, error) {
		return core.Match(res.Skills, req.Cwd, req.Paths), nil
	}, appendMatchResult)}, // S55
	{"activate", onSkills([]string{"name"}, func(fsys core.FS, req *Request, res *core.Result) (*core.Activation, error) {
		return core.Activate(context.Background(), fsys, req.Name, res.Skills)
	}, appendActivation)}, // S69, S70, S72
	{"toolDefinition", onSkills(nil, func(_ core.FS, _ *Request, res *core.Result) (*core.Tool, error) {
		return core.ActivationTool(res.Skills), nil
	}, appendTool)}, // S71
	{"agents", operation{nil, func(_ core.FS, _ *Request, b []byte) ([]byte, error) {
		return appendAgentTable(b, &core.AgentTable{Agents: core.Agents()}), nil
	}}}, // S64
	{"where", operation{append(loadContext[:len(loadContext):len(loadContext)], "dir"), func(fsys core.FS, req *Request, b []byte) ([]byte, error) {
		opts, err := req.options()
		if err != nil {
			return nil, err
		}
		return reply(b, appendWhere)(core.Where(context.Background(), fsys, req.Cwd, req.Home, req.Dir, opts))
	}}}, // S67
}

// onSkills is an operation on the skills the request's load context
// discovers: it reads the load context and fields, runs f on the
// discovery's result and writes f's result with write. It is not inlined:
// inlined into the initialiser of operations, each of its uses had a
// copy of the closure it returns, about 1 KB each in the wasm module (issue
// 13: the engine module's budget); not inlined, they share one.
//
//go:noinline
func onSkills[T any](fields []string, f func(core.FS, *Request, *core.Result) (T, error), write func([]byte, T) []byte) operation {
	return operation{append(loadContext[:len(loadContext):len(loadContext)], fields...), func(fsys core.FS, req *Request, b []byte) ([]byte, error) {
		res, err := req.discover(fsys)
		if err != nil {
			return nil, err
		}
		return reply(b, write)(f(fsys, req, res))
	}}
}

// reply returns a function that appends an engine result to b with write,
// or passes on the engine's error.
func reply[T any](b []byte, write func([]byte, T) []byte) func(T, error) ([]byte, error) {
	return func(v T, err error) ([]byte, error) {
		if err != nil {
			return nil, err
		}
		return write(b, v), nil
	}
}

// orTrue is an optional flag that defaults to true.
func orTrue(b *bool) bool { return b == nil || *b }

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

// frontmatterCache serves every discovery of this process (in the wasm
// module, of this instance) but the first: a host discovers again and
// again, and most SKILL.md files have not changed in between.
// Replies only serialize the skills, which is all the cache asks of them.
//
// The first discovery goes without it, so that a process that discovers
// once (a script, the CLI) pays nothing for a cache it never reads: naming
// each frontmatter for it, in V8's baseline code, and copying the results
// out of the call's arenas made the CLI at 1,000 skills about 4% slower
// (10 ms a run). The second discovery fills it; the third on use it.
var (
	frontmatterCache core.FrontmatterCache
	discovered       atomic.Bool
)

// discover runs the request's load context through [core.Discover].
func (req *Request) discover(fsys core.FS) (*core.Result, error) {
	opts, err := req.options()
	if err != nil {
		return nil, err
	}
	if discovered.Swap(true) {
		opts.FrontmatterCache = &frontmatterCache
	}
	return core.Discover(context.Background(), fsys, req.Cwd, req.Home, opts)
}
