package wire

import "github.com/skilldex/skilldex/core"

func callDiscover(fsys core.FS, req *Request, b []byte) ([]byte, error) {
	res, err := req.discover(fsys)
	if err != nil {
		return nil, err
	}
	return appendResult(b, res), nil
}

func callScanDir(fsys core.FS, req *Request, b []byte) ([]byte, error) {
	res, err := core.ScanDir(fsys, req.Dir, req.Source)
	if err != nil {
		return nil, err
	}
	return appendScanResult(b, res), nil
}

func callExpandCommand(fsys core.FS, req *Request, b []byte) ([]byte, error) {
	res, err := req.discover(fsys)
	if err != nil {
		return nil, err
	}
	enable := req.EnableSkillCommands == nil || *req.EnableSkillCommands
	e, err := core.ExpandCommand(fsys, req.Text, res.Skills, enable)
	if err != nil {
		return nil, err
	}
	return appendExpansion(b, e), nil
}

func callCommands(fsys core.FS, req *Request, b []byte) ([]byte, error) {
	res, err := req.discover(fsys)
	if err != nil {
		return nil, err
	}
	return appendCommandList(b, core.Commands(res.Skills)), nil
}

func callContextFiles(fsys core.FS, req *Request, b []byte) ([]byte, error) {
	opts, err := req.options()
	if err != nil {
		return nil, err
	}
	r, err := core.ContextFiles(fsys, req.Cwd, req.Home, opts.ConfigDirName)
	if err != nil {
		return nil, err
	}
	return appendContextResult(b, r), nil
}

func callExplain(fsys core.FS, req *Request, b []byte) ([]byte, error) {
	res, err := req.discover(fsys)
	if err != nil {
		return nil, err
	}
	e, err := core.Explain(req.Name, res)
	if err != nil {
		return nil, err
	}
	return appendExplanation(b, e), nil
}

func callRenderPrompt(fsys core.FS, req *Request, b []byte) ([]byte, error) {
	res, err := req.discover(fsys)
	if err != nil {
		return nil, err
	}
	opts := core.PromptOptions{ReadTool: req.ReadTool == nil || *req.ReadTool, Format: req.Format, MaxChars: req.MaxChars}
	p, err := core.RenderPrompt(res.Skills, opts)
	if err != nil {
		return nil, err
	}
	return appendPrompt(b, p), nil
}

func callResolve(fsys core.FS, req *Request, b []byte) ([]byte, error) {
	res, err := req.discover(fsys)
	if err != nil {
		return nil, err
	}
	r, err := core.Resolve(fsys, req.URL, res.Skills)
	if err != nil {
		return nil, err
	}
	return appendResource(b, r), nil
}

func callListFiles(fsys core.FS, req *Request, b []byte) ([]byte, error) {
	res, err := req.discover(fsys)
	if err != nil {
		return nil, err
	}
	l, err := core.ListFiles(fsys, req.Name, res.Skills)
	if err != nil {
		return nil, err
	}
	return appendFileList(b, l), nil
}

func callValidate(fsys core.FS, req *Request, b []byte) ([]byte, error) {
	r, err := core.Validate(fsys, req.Dir)
	if err != nil {
		return nil, err
	}
	return appendValidation(b, r), nil
}
