package core

import (
	"path"
	"strings"
)

// Explanation answers "where does this skill come from, and why is this
// copy (not) the one loaded?" for one name (SPEC S41).
type Explanation struct {
	Name       string
	Winner     *Skill // the loaded skill of that name, or nil
	Candidates []Candidate
}

// Candidate is one copy of a skill name found by discovery.
type Candidate struct {
	FilePath string
	Source   string
	Outcome  string // one of the Outcome constants
	Reason   string // why it lost, in words; "" for the loaded copy
}

// Candidate outcomes (SPEC S41): the loaded copy, or what S27 did to the
// others, one outcome per shadow reason.
const (
	OutcomeLoaded      = "loaded"       // this copy is the skill
	OutcomeShadowed    = "shadowed"     // ReasonName: another copy took the name first
	OutcomeDuplicate   = "duplicate"    // ReasonRealpath: the same file was already loaded
	OutcomeDisabled    = "disabled"     // ReasonDisabled
	OutcomeSourceOff   = "source-off"   // ReasonSourceOff
	OutcomeIgnored     = "ignored"      // ReasonIgnored
	OutcomeNotIncluded = "not-included" // ReasonNotIncluded
	OutcomeUntrusted   = "untrusted"    // ReasonUntrusted (S68)
)

// Explain says where the skill name was found in res, which copy won and
// why each other copy lost (SPEC S41), from res.Skills and res.Shadowed (S27).
//
// The candidates are the loaded copy first (outcome "loaded", no reason),
// then every shadowed copy of that exact name in res.Shadowed's order (S15:
// by file path for one name), each with an outcome naming what happened
// and a reason in words. A name found nowhere is an UNKNOWN_SKILL error
// with the S50 message (close names, then the loaded names); an empty name
// is MISSING_NAME.
func Explain(name string, res *Result) (*Explanation, error) {
	if name == "" {
		return nil, errorf(CodeMissingName, "explain requires a skill name")
	}
	e := &Explanation{Name: name, Candidates: []Candidate{}}
	for i := range res.Skills {
		if res.Skills[i].Name == name {
			s := res.Skills[i]
			e.Winner = &s
			e.Candidates = append(e.Candidates, Candidate{FilePath: s.FilePath, Source: s.Source, Outcome: OutcomeLoaded})
			break
		}
	}
	for _, sh := range res.Shadowed {
		if sh.Name != name {
			continue
		}
		outcome, reason := explainShadow(sh, res)
		e.Candidates = append(e.Candidates, Candidate{FilePath: sh.FilePath, Source: sh.Source, Outcome: outcome, Reason: reason})
	}
	if len(e.Candidates) == 0 {
		return nil, unknownSkill(name, res.Skills)
	}
	return e, nil
}

func explainShadow(sh Shadowed, res *Result) (outcome, reason string) {
	winner := sh.Winner
	var won *Skill
	for i := range res.Skills {
		if res.Skills[i].FilePath == sh.Winner && sh.Winner != "" {
			won = &res.Skills[i]
			winner += " (" + res.Skills[i].Source + ")"
			break
		}
	}
	switch sh.Reason {
	case ReasonName:
		return OutcomeShadowed, `the name "` + sh.Name + `" was already taken by ` + winner +
			", which comes first: " + nameRule(sh, won, res)
	case ReasonRealpath:
		return OutcomeDuplicate, "the same file (same realpath) was already loaded as " + winner
	case ReasonDisabled:
		return OutcomeDisabled, `disabledExtensions holds "skill:` + sh.Name + `"`
	case ReasonSourceOff:
		return OutcomeSourceOff, "the source " + sh.Source + " is turned off by " + sourceToggle(sh.Source)
	case ReasonIgnored:
		return OutcomeIgnored, "the name matches a pattern of ignoredSkills"
	case ReasonNotIncluded:
		return OutcomeNotIncluded, "includeSkills is set and the name matches none of its patterns"
	case ReasonUntrusted:
		return OutcomeUntrusted, "the project is not trusted (trustedProject: false), and a project-level skill loads only from a trusted project"
	case ReasonLinkOutside:
		return ReasonLinkOutside, "its SKILL.md is a link to a file outside the skill, its skills directory and its project or home (S43); link the skill folder instead"
	}
	return sh.Reason, "not loaded: " + sh.Reason
}

// nameRule says which rule of S16, S17, S19, S26 or S15 made the winner
// of a name come before the loser sh (S52).
func nameRule(sh Shadowed, won *Skill, res *Result) string {
	if won == nil { // a hand-built result: the general rule
		return "providers in priority order, custom directories last"
	}
	loserProvider, loserLevel, _ := strings.Cut(sh.Source, ":")
	loserRoot := path.Dir(path.Dir(sh.FilePath))
	winnerRoot := path.Dir(skillBaseDir(won))
	// The source, not Provider and Level, which a hand-built skill may lack.
	winnerProvider, winnerLevel, _ := strings.Cut(won.Source, ":")
	winnerName := won.ProviderName
	if winnerName == "" {
		winnerName = providerNameOf(winnerProvider, res)
	}
	switch {
	case loserProvider == "managed" && winnerProvider != "managed":
		return "managed skills are searched last, after every provider and the custom directories"
	case loserProvider == "custom" && winnerProvider != "custom":
		return "custom directories are searched last, after every provider"
	case loserProvider == "custom":
		if loserRoot == winnerRoot {
			return sameRoot(winnerRoot, won, sh)
		}
		return "customDirectories are searched in the order listed, and " + winnerRoot + " is listed before " + loserRoot
	case winnerProvider != loserProvider:
		return winnerName + " is searched before " + providerNameOf(loserProvider, res) +
			" (providers in priority order)"
	case winnerLevel != loserLevel:
		return "inside " + winnerName + ", " + winnerLevel + " skills come before " + loserLevel + " skills"
	case loserRoot == winnerRoot:
		return sameRoot(winnerRoot, won, sh)
	case winnerLevel == "project" && path.Dir(path.Dir(winnerRoot)) != path.Dir(path.Dir(loserRoot)):
		return winnerRoot + " is closer to the working directory than " + loserRoot
	}
	return "inside " + winnerName + ", " + winnerRoot + " is searched before " + loserRoot
}

// sameRoot is S52's "S15 order inside one root".
func sameRoot(root string, won *Skill, sh Shadowed) string {
	return "both are in " + root + ", where skills are taken in S15 order (name, then path), and " +
		path.Base(skillBaseDir(won)) + " comes before " + path.Base(path.Dir(sh.FilePath))
}

// providerNameOf is the display name of a provider id: a loaded skill's,
// or the built-in table's.
func providerNameOf(id string, res *Result) string {
	for i := range res.Skills {
		if res.Skills[i].Provider == id {
			return res.Skills[i].ProviderName
		}
	}
	return providerDisplayName(id)
}

// sourceToggle names the option that turns a source off (S23).
func sourceToggle(source string) string {
	switch source {
	case "codex:user":
		return "enableCodexUser: false"
	case "claude:user":
		return "enableClaudeUser: false"
	case "claude:project":
		return "enableClaudeProject: false"
	case "native:user":
		return "enablePiUser: false"
	case "native:project":
		return "enablePiProject: false"
	}
	return "the source toggles (all five enable* options are false)"
}
