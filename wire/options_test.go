package wire

import (
	"reflect"
	"slices"
	"testing"

	"github.com/skilldex/skilldex/core"
)

// wireOptions is the options object of a request as encoding/json sees it
// (the keys of Options in js/index.d.ts): the oracle of decodeOptions and
// the key list of the schema test. Its switches say "enable", core.Options'
// say "disable", so that the zero core.Options is the defaults.
type wireOptions struct {
	Enabled             *bool             `json:"enabled"`
	EnableCodexUser     *bool             `json:"enableCodexUser"`
	EnableClaudeUser    *bool             `json:"enableClaudeUser"`
	EnableClaudeProject *bool             `json:"enableClaudeProject"`
	EnablePiUser        *bool             `json:"enablePiUser"`
	EnablePiProject     *bool             `json:"enablePiProject"`
	CustomDirectories   []string          `json:"customDirectories"`
	IgnoredSkills       []string          `json:"ignoredSkills"`
	IncludeSkills       []string          `json:"includeSkills"`
	DisabledExtensions  []string          `json:"disabledExtensions"`
	ConfigDirName       string            `json:"configDirName"`
	ExtraProviders      []core.Provider   `json:"extraProviders"`
	TrustedProject      *bool             `json:"trustedProject"`
	Agents              []string          `json:"agents"`
	Env                 map[string]string `json:"env"`
}

// switches pairs each wire switch with its core.Options field.
func (w *wireOptions) switches(o *core.Options) []struct {
	on  **bool
	off *bool
} {
	return []struct {
		on  **bool
		off *bool
	}{
		{&w.Enabled, &o.Disabled}, {&w.EnableCodexUser, &o.DisableCodexUser}, {&w.EnableClaudeUser, &o.DisableClaudeUser},
		{&w.EnableClaudeProject, &o.DisableClaudeProject}, {&w.EnablePiUser, &o.DisablePiUser}, {&w.EnablePiProject, &o.DisablePiProject},
		{&w.TrustedProject, &o.UntrustedProject},
	}
}

// wireFrom is o as encoding/json would decode over it.
func wireFrom(o core.Options) wireOptions {
	w := wireOptions{CustomDirectories: o.CustomDirectories, IgnoredSkills: o.IgnoredSkills, IncludeSkills: o.IncludeSkills,
		DisabledExtensions: o.DisabledExtensions, ConfigDirName: o.ConfigDirName, ExtraProviders: o.ExtraProviders,
		Agents: o.Agents, Env: o.Env}
	for _, s := range w.switches(&o) {
		on := !*s.off
		*s.on = &on
	}
	return w
}

// core is w over base: a switch JSON set to null keeps base's value, as
// decodeOptions does.
func (w wireOptions) core(base core.Options) core.Options {
	o := base
	o.CustomDirectories, o.IgnoredSkills, o.IncludeSkills = w.CustomDirectories, w.IgnoredSkills, w.IncludeSkills
	o.DisabledExtensions, o.ConfigDirName, o.ExtraProviders = w.DisabledExtensions, w.ConfigDirName, w.ExtraProviders
	o.Agents, o.Env = w.Agents, w.Env
	for _, s := range w.switches(&o) {
		if *s.on != nil {
			*s.off = !**s.on
		}
	}
	return o
}

// TestAppendOptions: what AppendOptions writes, decodeOptions reads back
// into the same Options, from a zero base, and every key of the options
// object is written.
func TestAppendOptions(t *testing.T) {
	for _, o := range []core.Options{
		{},
		core.DefaultOptions(),
		{Disabled: true, DisableCodexUser: true, DisableClaudeUser: true, DisableClaudeProject: true, DisablePiUser: true, DisablePiProject: true},
		{DisableClaudeProject: true, CustomDirectories: []string{"/x", "/y \"quoted\""}, IgnoredSkills: []string{"a*"},
			IncludeSkills: []string{}, DisabledExtensions: []string{"skill:b"}, ConfigDirName: ".pi"},
		{ExtraProviders: []core.Provider{{ID: "acme", DisplayName: "Acme", Priority: -3, UserDirs: []string{".acme/skills"},
			UserFirst: true, CwdOnly: true, RequireDescription: true}, {ID: "empty", Priority: 1 << 40}}},
		{ExtraProviders: []core.Provider{}},
		{Agents: []string{"codex", "claude-code"}, Env: map[string]string{"CODEX_HOME": "/x", "A": "", "Z\"": "q"}, UntrustedProject: true},
		{Agents: []string{}, Env: map[string]string{}},
	} {
		data := AppendOptions(nil, &o)
		var got core.Options
		if err := decodeOptions(data, &got); err != nil {
			t.Fatalf("decodeOptions(%s): %v", data, err)
		}
		if !reflect.DeepEqual(got, o) {
			t.Errorf("decodeOptions(AppendOptions(%+v)) = %+v\n%s", o, got, data)
		}
		v, err := ParseJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		keys := v.(*core.Map).Keys()
		slices.Sort(keys)
		if want := jsonKeys(wireOptions{}); !slices.Equal(keys, want) {
			t.Errorf("AppendOptions writes %q, the options object has %q", keys, want)
		}
	}
}

// TestOptions_zeroIsDefault (S81): a request without options, one with an empty
// options object, and the zero core.Options sent by a Go host all discover
// with the SPEC section 5 defaults.
func TestOptions_zeroIsDefault(t *testing.T) {
	want := core.DefaultOptions()
	for _, tc := range []struct {
		name string
		json string
	}{
		{"no options", ``},
		{"null", `null`},
		{"empty object", `{}`},
		{"the zero core.Options", string(AppendOptions(nil, &core.Options{}))},
	} {
		req := Request{Options: RawJSON(tc.json)}
		got, err := req.options()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got.ConfigDirName == "" {
			got.ConfigDirName = core.DefaultConfigDirName // "" means the default (S3)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: options = %+v, want the defaults %+v", tc.name, got, want)
		}
	}
}
