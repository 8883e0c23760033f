package wire

import (
	"maps"
	"slices"
	"strconv"

	"github.com/skilldex/skilldex/core"
)

// AppendOptions appends o as the options object of a request (SPEC section
// 5, the keys of Options in js/index.d.ts), every key written (a nil list
// as null): what decodeOptions reads back into o. A Go host that sends
// requests (wasmhost) fills Request.Options with it. o.FrontmatterCache is not part of a
// request and is left out.
func AppendOptions(b []byte, o *core.Options) []byte {
	w := newWriter(b)
	w.Byte('{')
	for i, sw := range []struct {
		key string
		off bool
	}{
		{"enabled", o.Disabled}, {"enableCodexUser", o.DisableCodexUser}, {"enableClaudeUser", o.DisableClaudeUser},
		{"enableClaudeProject", o.DisableClaudeProject}, {"enablePiUser", o.DisablePiUser}, {"enablePiProject", o.DisablePiProject},
		{"trustedProject", o.UntrustedProject},
	} {
		w.Key(sw.key, i == 0)
		w.Bool(!sw.off)
	}
	w.Raw(`,"customDirectories":`)
	nullableStrings(&w, o.CustomDirectories)
	w.Raw(`,"ignoredSkills":`)
	nullableStrings(&w, o.IgnoredSkills)
	w.Raw(`,"includeSkills":`)
	nullableStrings(&w, o.IncludeSkills)
	w.Raw(`,"disabledExtensions":`)
	nullableStrings(&w, o.DisabledExtensions)
	w.RawStr(`,"configDirName":`, o.ConfigDirName)
	w.Raw(`,"extraProviders":`)
	if o.ExtraProviders == nil {
		w.Raw("null")
	} else {
		list(&w, o.ExtraProviders, appendProvider)
	}
	w.Raw(`,"agents":`)
	nullableStrings(&w, o.Agents)
	w.Raw(`,"env":`)
	if o.Env == nil {
		w.Raw("null")
	} else {
		w.Byte('{')
		for i, k := range slices.Sorted(maps.Keys(o.Env)) {
			w.Key(k, i == 0)
			w.Str(o.Env[k])
		}
		w.Byte('}')
	}
	w.Byte('}')
	return w.B
}

// appendProvider writes an extraProviders entry.
func appendProvider(w *writer, p *core.Provider) {
	w.RawStr(`{"id":`, p.ID)
	w.RawStr(`,"displayName":`, p.DisplayName)
	w.Raw(`,"priority":`)
	w.Raw(strconv.Itoa(p.Priority))
	w.Raw(`,"userDirs":`)
	nullableStrings(w, p.UserDirs)
	w.Raw(`,"projectDirs":`)
	nullableStrings(w, p.ProjectDirs)
	w.Raw(`,"userFirst":`)
	w.Bool(p.UserFirst)
	w.Raw(`,"cwdOnly":`)
	w.Bool(p.CwdOnly)
	w.Raw(`,"requireDescription":`)
	w.Bool(p.RequireDescription)
	w.Byte('}')
}

// nullableStrings writes list as a JSON array, or null when it is nil.
func nullableStrings(w *writer, list []string) {
	if list == nil {
		w.Raw("null")
		return
	}
	w.Strings(list)
}
