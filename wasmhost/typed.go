package wasmhost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/wire"
)

// Load is the load context of every operation that works on discovered
// skills (SPEC S1): the working and home directories, absolute, and the
// discovery options. The module runs discovery inside each such call.
type Load struct {
	Cwd  string
	Home string
	// Options are the SPEC section 5 options; nil and the zero
	// core.Options both mean the defaults (every source on, no filters).
	Options *core.Options
}

// loadRequest is the request of op on l's load context (wire.Request is
// the schema of every request; the typed methods fill it in).
func loadRequest(op string, l Load) wire.Request {
	req := wire.Request{Op: op, Cwd: l.Cwd, Home: l.Home}
	if l.Options != nil {
		req.Options = wire.AppendOptions(nil, l.Options)
	}
	return req
}

// wireOptions are core.Options as the request carries them: core's json
// keys, and trustedProject, the negation of UntrustedProject (SPEC S68),
// which has no json key of its own so that its zero value keeps the
// default.
type wireOptions struct {
	*core.Options
	TrustedProject bool `json:"trustedProject"`
}

// do sends req and decodes a successful reply into out with decode; an
// error reply is returned as a *core.Error.
func (e *Engine) do(ctx context.Context, req wire.Request, decode func([]byte) error) error {
	in, err := json.Marshal(req)
	if err != nil {
		return err
	}
	reply, err := e.Call(ctx, in)
	if err != nil {
		return err
	}
	if bytes.HasPrefix(reply, []byte(`{"error":`)) {
		var r struct{ Error core.Error }
		if err := json.Unmarshal(reply, &r); err != nil {
			return fmt.Errorf("wasmhost: undecodable error reply: %v", err)
		}
		return &r.Error
	}
	if err := decode(reply); err != nil {
		return fmt.Errorf("wasmhost: undecodable %s reply: %v", req.Op, err)
	}
	return nil
}

// into returns a decoder of a reply into v with encoding/json (whose
// case-insensitive field matching maps "filePath" to FilePath).
func into(v any) func([]byte) error {
	return func(b []byte) error { return json.Unmarshal(b, v) }
}

// Discover runs discovery (SPEC S1-S27), like [core.Discover].
func (e *Engine) Discover(ctx context.Context, l Load) (*core.Result, error) {
	var r struct {
		Skills   []skillJSON
		Warnings []core.Warning
		Shadowed []core.Shadowed
	}
	if err := e.do(ctx, loadRequest("discover", l), into(&r)); err != nil {
		return nil, err
	}
	skills, err := toSkills(r.Skills)
	if err != nil {
		return nil, err
	}
	return &core.Result{Skills: skills, Warnings: r.Warnings, Shadowed: r.Shadowed}, nil
}

// ScanDir scans one directory as a skills root (SPEC S28), like
// [core.ScanDir]; source is "<provider>:<level>", "" for custom:user.
func (e *Engine) ScanDir(ctx context.Context, dir, source string) (*core.ScanResult, error) {
	var r struct {
		Skills   []skillJSON
		Warnings []core.Warning
	}
	if err := e.do(ctx, wire.Request{Op: "scanDir", Dir: dir, Source: source}, into(&r)); err != nil {
		return nil, err
	}
	skills, err := toSkills(r.Skills)
	if err != nil {
		return nil, err
	}
	return &core.ScanResult{Skills: skills, Warnings: r.Warnings}, nil
}

// Resolve reads a skill:// URL (SPEC S29-S32), like [core.Resolve] on the
// skills l discovers.
func (e *Engine) Resolve(ctx context.Context, l Load, url string) (*core.Resource, error) {
	req := loadRequest("resolve", l)
	req.URL = url
	var r core.Resource
	if err := e.do(ctx, req, into(&r)); err != nil {
		return nil, err
	}
	return &r, nil
}

// ListFiles lists a skill's files (SPEC S33), like [core.ListFiles].
func (e *Engine) ListFiles(ctx context.Context, l Load, name string) (*core.FileList, error) {
	req := loadRequest("listFiles", l)
	req.Name = name
	var r core.FileList
	if err := e.do(ctx, req, into(&r)); err != nil {
		return nil, err
	}
	return &r, nil
}

// RenderPrompt renders the discovered skills for a system prompt (SPEC
// S34), like [core.RenderPrompt]. Unlike the JSON request, opts.ReadTool
// is taken as given: set it to true when the agent has a read tool.
func (e *Engine) RenderPrompt(ctx context.Context, l Load, opts core.PromptOptions) (*core.Prompt, error) {
	req := loadRequest("renderPrompt", l)
	req.ReadTool, req.Format, req.MaxChars = &opts.ReadTool, opts.Format, opts.MaxChars
	var r core.Prompt
	if err := e.do(ctx, req, into(&r)); err != nil {
		return nil, err
	}
	return &r, nil
}

// ExpandCommand expands a /skill:<name> command (SPEC S35, S36), like
// [core.ExpandCommand]: nil, nil when text is not a skill command, an
// UNKNOWN_SKILL or MISSING_NAME error when it names no skill (S75).
func (e *Engine) ExpandCommand(ctx context.Context, l Load, text string, enableSkillCommands bool) (*core.Expansion, error) {
	req := loadRequest("expandCommand", l)
	req.Text, req.EnableSkillCommands = text, &enableSkillCommands
	var r *core.Expansion
	if err := e.do(ctx, req, into(&r)); err != nil {
		return nil, err
	}
	return r, nil
}

// Commands lists the /skill:<name> commands (SPEC S37), like
// [core.Commands].
func (e *Engine) Commands(ctx context.Context, l Load) (*core.CommandList, error) {
	var r core.CommandList
	if err := e.do(ctx, loadRequest("commands", l), into(&r)); err != nil {
		return nil, err
	}
	return &r, nil
}

// ContextFiles loads the context files (SPEC S38, S39), like
// [core.ContextFiles] with l.Options' config directory.
func (e *Engine) ContextFiles(ctx context.Context, l Load) (*core.ContextResult, error) {
	var r struct {
		Files []struct {
			Path, Content, Level string
			Depth                *int // null for the user file
		}
		Warnings []core.Warning // S43, S45: absent when none
	}
	if err := e.do(ctx, loadRequest("contextFiles", l), into(&r)); err != nil {
		return nil, err
	}
	res := &core.ContextResult{Files: make([]core.ContextFile, len(r.Files)), Warnings: r.Warnings}
	for i, f := range r.Files {
		depth := -1
		if f.Depth != nil {
			depth = *f.Depth
		}
		res.Files[i] = core.ContextFile{Path: f.Path, Content: f.Content, Level: f.Level, Depth: depth}
	}
	return res, nil
}

// Validate checks a skill directory (SPEC S40), like [core.Validate].
func (e *Engine) Validate(ctx context.Context, dir string) (*core.Validation, error) {
	var r core.Validation
	if err := e.do(ctx, wire.Request{Op: "validate", Dir: dir}, into(&r)); err != nil {
		return nil, err
	}
	return &r, nil
}

// Explain says where a name was found and why each copy won or lost (SPEC
// S41), like [core.Explain] on the result of discovering l.
func (e *Engine) Explain(ctx context.Context, l Load, name string) (*core.Explanation, error) {
	req := loadRequest("explain", l)
	req.Name = name
	var r struct {
		Name       string
		Winner     *skillJSON
		Candidates []core.Candidate
	}
	if err := e.do(ctx, req, into(&r)); err != nil {
		return nil, err
	}
	x := &core.Explanation{Name: r.Name, Candidates: r.Candidates}
	if r.Winner != nil {
		s, err := r.Winner.skill()
		if err != nil {
			return nil, err
		}
		x.Winner = &s
	}
	return x, nil
}

// Activate loads a skill for the model (SPEC S69, S70, S72), like
// [core.Activate] on the skills l discovers.
func (e *Engine) Activate(ctx context.Context, l Load, name string) (*core.Activation, error) {
	req := loadRequest("activate", l)
	req.Name = name
	var r core.Activation
	if err := e.do(ctx, req, into(&r)); err != nil {
		return nil, err
	}
	return &r, nil
}

// ActivationTool returns the activation tool's definition (SPEC S71), like
// [core.ActivationTool] on the skills l discovers: nil, nil when there is
// no skill to activate (register no tool).
func (e *Engine) ActivationTool(ctx context.Context, l Load) (*core.Tool, error) {
	var r *struct {
		Name        string
		Description string
		InputSchema struct {
			Properties struct {
				Name struct {
					Description string
					Enum        []string
				}
			}
		}
	}
	if err := e.do(ctx, loadRequest("toolDefinition", l), into(&r)); err != nil || r == nil {
		return nil, err
	}
	p := r.InputSchema.Properties.Name
	return &core.Tool{Name: r.Name, Description: r.Description, NameDescription: p.Description, Names: p.Enum}, nil
}

// skillJSON is a core.Skill as JSON; the frontmatter keeps its key order,
// which encoding/json's maps would lose.
type skillJSON struct {
	Name         string
	Description  string
	FilePath     string
	BaseDir      string
	Source       string
	Provider     string
	ProviderName string
	Level        string
	SourcePath   string
	Frontmatter  json.RawMessage
	Contexts     []string
	Globs        []string
	AlwaysApply  *bool

	DisableModelInvocation bool  // S47
	UserInvocable          *bool // S47: present only as false
}

func (s *skillJSON) skill() (core.Skill, error) {
	fm := &core.Map{}
	if len(s.Frontmatter) > 0 {
		v, err := wire.ParseJSON(s.Frontmatter)
		if err != nil {
			return core.Skill{}, fmt.Errorf("frontmatter of %s: %v", s.FilePath, err)
		}
		m, ok := v.(*core.Map)
		if !ok {
			return core.Skill{}, fmt.Errorf("frontmatter of %s is not an object", s.FilePath)
		}
		fm = m
	}
	return core.Skill{
		Name: s.Name, Description: s.Description, FilePath: s.FilePath, BaseDir: s.BaseDir,
		Source: s.Source, Provider: s.Provider, ProviderName: s.ProviderName, Level: s.Level,
		SourcePath: s.SourcePath, Frontmatter: fm,
		Contexts: s.Contexts, Globs: s.Globs, AlwaysApply: s.AlwaysApply,
		DisableModelInvocation: s.DisableModelInvocation,
		DisableUserInvocation:  s.UserInvocable != nil && !*s.UserInvocable,
	}, nil
}

func toSkills(list []skillJSON) ([]core.Skill, error) {
	out := make([]core.Skill, len(list))
	for i := range list {
		s, err := list[i].skill()
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// Match says which skills apply to paths (SPEC S55), like [core.Match] on
// the skills of l's discovery.
func (e *Engine) Match(ctx context.Context, l Load, paths []string) (*core.MatchResult, error) {
	req := loadRequest("match", l)
	req.Paths = paths
	var r core.MatchResult
	if err := e.do(ctx, req, into(&r)); err != nil {
		return nil, err
	}
	return &r, nil
}
