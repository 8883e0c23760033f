package core

import "slices"

// Skill is one discovered skill: the public skill object of the SPEC (section
// 5, "The public skill object"). Its JSON form (see [Skill.AppendJSON]) is
// what every runtime returns.
type Skill struct {
	Name         string
	Description  string
	FilePath     string // the SKILL.md path as reached (a symlinked entry keeps the link's name)
	BaseDir      string // the directory holding SKILL.md
	Source       string // "<provider>:<level>"
	Provider     string
	ProviderName string
	Level        string // "user" or "project"
	SourcePath   string // the absolute SKILL.md path
	Frontmatter  *Map   // the whole mapping, keys as written; never nil

	// Present only when the frontmatter holds the right type (SPEC S8):
	// a nil slice is absent, a non-nil empty slice is an empty array.
	Contexts    []string
	Globs       []string
	AlwaysApply *bool

	realpath string // the realpath of FilePath, for S25's dedupe
}

// Warning is a non-fatal problem met while discovering: the path it concerns
// (or "" for a provider-level warning) and a message that names the fix.
type Warning struct {
	SkillPath string
	Message   string
}

// Shadow reasons (SPEC S27).
const (
	ReasonName        = "name"
	ReasonRealpath    = "realpath"
	ReasonDisabled    = "disabled"
	ReasonSourceOff   = "source-off"
	ReasonIgnored     = "ignored"
	ReasonNotIncluded = "not-included"
)

// Shadowed is a skill that was found but not loaded, and why (SPEC S27).
type Shadowed struct {
	Name     string
	FilePath string
	Source   string
	Reason   string // one of the Reason constants
	Winner   string // the winning FilePath, for ReasonName and ReasonRealpath only
}

// Result is what [Discover] returns: the loaded skills, the warnings, and
// the skills that were found but not loaded, each with its reason.
type Result struct {
	Skills   []Skill
	Warnings []Warning
	Shadowed []Shadowed
}

// ScanResult is what [ScanDir] returns (SPEC S28).
type ScanResult struct {
	Skills   []Skill
	Warnings []Warning
}

// AppendJSON appends the skill's JSON object, keys in SPEC order.
func (s *Skill) AppendJSON(b []byte) []byte {
	w := jsonWriter{b}
	w.skill(s)
	return w.b
}

func (w *jsonWriter) skill(s *Skill) {
	w.raw(`{"name":`)
	w.str(s.Name)
	w.raw(`,"description":`)
	w.str(s.Description)
	w.raw(`,"filePath":`)
	w.str(s.FilePath)
	w.raw(`,"baseDir":`)
	w.str(s.BaseDir)
	w.raw(`,"source":`)
	w.str(s.Source)
	w.raw(`,"provider":`)
	w.str(s.Provider)
	w.raw(`,"providerName":`)
	w.str(s.ProviderName)
	w.raw(`,"level":`)
	w.str(s.Level)
	w.raw(`,"sourcePath":`)
	w.str(s.SourcePath)
	w.raw(`,"frontmatter":`)
	if s.Frontmatter == nil {
		w.raw("{}")
	} else {
		w.value(s.Frontmatter)
	}
	if s.Contexts != nil {
		w.raw(`,"contexts":`)
		w.strings(s.Contexts)
	}
	if s.Globs != nil {
		w.raw(`,"globs":`)
		w.strings(s.Globs)
	}
	if s.AlwaysApply != nil {
		w.raw(`,"alwaysApply":`)
		w.boolean(*s.AlwaysApply)
	}
	w.byte('}')
}

func (w *jsonWriter) skills(list []Skill) {
	w.byte('[')
	for i := range list {
		if i > 0 {
			w.byte(',')
		}
		w.skill(&list[i])
	}
	w.byte(']')
}

func (w *jsonWriter) warnings(list []Warning) {
	w.byte('[')
	for i, x := range list {
		if i > 0 {
			w.byte(',')
		}
		w.raw(`{"skillPath":`)
		w.str(x.SkillPath)
		w.raw(`,"message":`)
		w.str(x.Message)
		w.byte('}')
	}
	w.byte(']')
}

// AppendJSON appends {"skills","warnings","shadowed"} (SPEC section 12).
func (r *Result) AppendJSON(b []byte) []byte {
	n := skillsSizeHint(r.Skills) + warningsSizeHint(r.Warnings) + 64
	for i := range r.Shadowed {
		x := &r.Shadowed[i]
		n += 64 + len(x.Name) + len(x.FilePath) + len(x.Source) + len(x.Reason) + len(x.Winner)
	}
	w := jsonWriter{slices.Grow(b, n)}
	w.raw(`{"skills":`)
	w.skills(r.Skills)
	w.raw(`,"warnings":`)
	w.warnings(r.Warnings)
	w.raw(`,"shadowed":[`)
	for i, x := range r.Shadowed {
		if i > 0 {
			w.byte(',')
		}
		w.raw(`{"name":`)
		w.str(x.Name)
		w.raw(`,"filePath":`)
		w.str(x.FilePath)
		w.raw(`,"source":`)
		w.str(x.Source)
		w.raw(`,"reason":`)
		w.str(x.Reason)
		if x.Winner != "" {
			w.raw(`,"winner":`)
			w.str(x.Winner)
		}
		w.byte('}')
	}
	w.raw("]}")
	return w.b
}

// AppendJSON appends {"skills","warnings"} (SPEC section 12).
func (r *ScanResult) AppendJSON(b []byte) []byte {
	w := jsonWriter{slices.Grow(b, skillsSizeHint(r.Skills)+warningsSizeHint(r.Warnings)+32)}
	w.raw(`{"skills":`)
	w.skills(r.Skills)
	w.raw(`,"warnings":`)
	w.warnings(r.Warnings)
	w.byte('}')
	return w.b
}

// skillsSizeHint is about the size of the skills' JSON (a little more,
// unless strings need escapes), so that a reply's buffer is allocated once:
// growing it step by step allocated five times its size (50 MB for 10000
// skills).
func skillsSizeHint(list []Skill) int {
	n := 2
	for i := range list {
		s := &list[i]
		n += 200 + len(s.Name) + len(s.Description) + len(s.FilePath) + len(s.BaseDir) + len(s.Source) +
			len(s.Provider) + len(s.ProviderName) + len(s.Level) + len(s.SourcePath) + valueSizeHint(s.Frontmatter)
		for _, c := range s.Contexts {
			n += len(c) + 3
		}
		for _, g := range s.Globs {
			n += len(g) + 3
		}
	}
	return n
}

func warningsSizeHint(list []Warning) int {
	n := 2
	for _, x := range list {
		n += 32 + len(x.SkillPath) + len(x.Message)
	}
	return n
}

// valueSizeHint is about the size of v's JSON.
func valueSizeHint(v Value) int {
	switch v := v.(type) {
	case string:
		return len(v) + 2
	case []Value:
		n := 2
		for _, e := range v {
			n += valueSizeHint(e) + 1
		}
		return n
	case *Map:
		if v == nil {
			return 2
		}
		if v.raw != nil {
			return len(v.raw)
		}
		n := 2
		for i, k := range v.keys {
			n += len(k) + 4 + valueSizeHint(v.vals[i])
			if i > 64 {
				break // a rough figure is enough
			}
		}
		return n
	}
	return 24 // null, a boolean or a number
}
