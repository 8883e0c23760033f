package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/internal/jsontext"
)

// The hand-written JSON decoder (decode.go and internal/jsontext) against encoding/json, which
// the engine used before: the same documents are accepted, into the same
// values. Where it differs on purpose: keys match exactly (encoding/json
// also matches them case-insensitively), a request is exactly one JSON
// value (encoding/json's Decoder ignored what followed it), and for a key
// given twice only the last value is checked.

// oracleParseJSON is ParseJSON as it was, on encoding/json's tokens.
func oracleParseJSON(data []byte) (core.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	v, err := oracleJSONValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON document")
	}
	return v, nil
}

func oracleJSONValue(dec *json.Decoder, depth int) (core.Value, error) {
	if depth > jsontext.MaxDepth {
		return nil, errors.New("JSON nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := &core.Map{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := oracleJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				m.Set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return m, nil
		case '[':
			list := []any{}
			for dec.More() {
				v, err := oracleJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, errors.New("unexpected delimiter")
	case string, bool, float64, nil:
		return t, nil
	}
	return nil, errors.New("unexpected JSON token")
}

var jsonSeeds = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e3`, `-1E-2`, `"x"`, ` {"a" : [1, "b", null, {"c": {}}] } `,
	`{"a":1,"a":2,"b":3}`, `"\u00e9\ud83d\ude00\ud800\udc00\ud800x\udc00\u0041"`, `"\ud800\u0041"`, `"a\"\\\/\b\f\n\r\t"`,
	"\"\xff\xfe\"", "\"ok\xc3\xa9\xe2\x82\"", `01`, `1.`, `.5`, `-`, `1e`, `1e+`, `tru`, `nul`, `[1,]`, `{"a":1,}`, `{"a" 1}`,
	`{a:1}`, `[1 2]`, `"\x"`, `"\u12g4"`, "\"a\tb\"", `1e400`, `-1e400`, `1e-400`, `[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	`{"version":2,"plugins":{"kit@m":[{"scope":"user","installPath":"/p/kit"}]}}`, `1 2`, `{} x`, "", " ", `"`, `"abc`, `[`, `{`, `{"a"`, `{"a":`,
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseJSON(data)
		want, werr := oracleParseJSON(data)
		if (err == nil) != (werr == nil) {
			t.Fatalf("ParseJSON(%q): error %v, encoding/json %v", data, err, werr)
		}
		if err == nil && valueJSON(got) != valueJSON(want) {
			t.Fatalf("ParseJSON(%q) = %s, encoding/json %s", data, valueJSON(got), valueJSON(want))
		}
		if f, ok := got.(float64); ok && math.Signbit(f) != math.Signbit(want.(float64)) {
			t.Fatalf("ParseJSON(%q): sign of %v", data, f)
		}
	})
}

// requestKeys are Request's and Options' JSON keys (json tags).
var requestKeys = func() map[string]bool {
	keys := map[string]bool{}
	for _, v := range []any{Request{}, wireOptions{}, core.Provider{}} {
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			keys[strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]] = true
		}
	}
	return keys
}()

// onlyExactKeys reports whether every object key in data is either one of
// requestKeys or matches none of them case-insensitively, and no object
// repeats a key: the documents where the two decoders must agree.
func onlyExactKeys(data []byte) bool {
	v, err := ParseJSON(data)
	if err != nil {
		return true
	}
	ok := true
	var walk func(v core.Value)
	walk = func(v core.Value) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(e)
			}
		case *core.Map:
			for _, k := range v.Keys() {
				if !requestKeys[k] {
					for known := range requestKeys {
						if strings.EqualFold(k, known) || strings.EqualFold(strings.ReplaceAll(strings.ReplaceAll(k, "ſ", "s"), "K", "k"), known) {
							ok = false
						}
					}
				}
				x, _ := v.Get(k)
				walk(x)
			}
		}
	}
	walk(v)
	return ok && !hasDuplicateKeys(data)
}

// hasDuplicateKeys reports an object with a key given twice anywhere in
// data (a Map keeps one).
func hasDuplicateKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		obj    bool
		keys   map[string]bool
		expect bool // the next string is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, isStr := tok.(string); isStr && top != nil && top.obj && top.expect {
			if top.keys[s] {
				return true
			}
			top.keys[s] = true
			top.expect = false
			continue
		}
		if top != nil && top.obj {
			top.expect = true // a value was read (or starts): a key comes next
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, keys: map[string]bool{}, expect: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].obj {
				stack[len(stack)-1].expect = true
			}
		}
	}
}

// oneValue reports whether data holds exactly one JSON value.
func oneValue(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	if dec.Decode(&v) != nil {
		return true // invalid: both decoders reject it
	}
	_, err := dec.Token()
	return err == io.EOF
}

var requestSeeds = []string{
	`{"op":"discover","cwd":"/w","home":"/h"}`,
	`{"op":"discover","cwd":"/w","home":"/h","options":{"enabled":false,"customDirectories":["a",null],"extraProviders":[{"id":"x","priority":3,"userDirs":["s"]},null]}}`,
	`{"op":"renderPrompt","readTool":false,"format":"xml","maxChars":100}`, `{"maxChars":1.5}`, `{"maxChars":1e2}`, `{"maxChars":-0}`,
	`{"maxChars":9223372036854775808}`, `{"readTool":null,"enableSkillCommands":true}`, `{"readTool":"yes"}`, `{"op":1}`, `{"bogus":1}`,
	`{"options":null}`, `{"options":[]}`, `{"options":{"bogus":1}}`, `{"options":{"enabled":"yes"}}`, `{"options":{"customDirectories":"x"}}`,
	`{"options":{"extraProviders":[{"priority":"high"}]}}`, `{"options":{"extraProviders":[{"priority":2.5}]}}`, `{"options":{"extraProviders":[1]}}`,
	`{"options":{"extraProviders":[{"bogus":1}]}}`, `{"options":{"customDirectories":[1]}}`, `null`, `[]`, `"x"`, `{"Op":"discover"}`,
	`{"op":"x","op":"discover"}`, `{"text":"\u0000\ud800"}`, `{} `, `{"options":{"configDirName":null,"ignoredSkills":null}}`,
	`{"options":{"trustedProject":false}}`, `{"options":{"trustedProject":null,"enabled":true}}`, `{"options":{"trustedProject":1}}`,
	`{"options":{"agents":["codex",null],"env":{"CODEX_HOME":"/x","A":null}}}`, `{"options":{"env":{"A":1}}}`, `{"options":{"env":{"A":true}}}`,
	`{"options":{"env":[]}}`, `{"options":{"env":"x"}}`, `{"options":{"env":null,"agents":null}}`, `{"options":{"agents":"codex"}}`,
}

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range requestSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !onlyExactKeys(data) || !oneValue(data) {
			return
		}
		var got, want Request
		err := decodeRequest(data, &got)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		werr := dec.Decode(&want)
		if (err == nil) != (werr == nil) {
			t.Fatalf("decodeRequest(%q): error %v, encoding/json %v", data, err, werr)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeRequest(%q) = %+v, encoding/json %+v", data, got, want)
		}
		if len(got.Options) == 0 {
			return
		}
		gotOpts := core.DefaultOptions()
		err = decodeOptions(got.Options, &gotOpts)
		wantWire := wireFrom(core.DefaultOptions())
		dec = json.NewDecoder(bytes.NewReader(want.Options))
		dec.DisallowUnknownFields()
		werr = dec.Decode(&wantWire)
		wantOpts := wantWire.core(core.DefaultOptions())
		if (err == nil) != (werr == nil) {
			t.Fatalf("decodeOptions(%s): error %v, encoding/json %v", got.Options, err, werr)
		}
		if err == nil && !reflect.DeepEqual(gotOpts, wantOpts) {
			t.Fatalf("decodeOptions(%s) = %+v, encoding/json %+v", got.Options, gotOpts, wantOpts)
		}
	})
}

// TestDecodeOptions_trustedProject: the wire's trustedProject (default
// true) is the negation of Options.UntrustedProject (S68); null keeps the
// default, and a value that is not a boolean is an error naming the key.
func TestDecodeOptions_trustedProject(t *testing.T) {
	for _, tc := range []struct {
		in        string
		untrusted bool
		err       string
	}{
		{`{}`, false, ""},
		{`{"trustedProject":true}`, false, ""},
		{`{"trustedProject":null}`, false, ""},
		{`{"trustedProject":false}`, true, ""},
		{`{"trustedProject":false,"trustedProject":true}`, false, ""},
		{`{"trustedProject":"no"}`, false, "json: cannot unmarshal string into Go struct field Options.trustedProject of type bool"},
	} {
		o := core.DefaultOptions()
		err := decodeOptions([]byte(tc.in), &o)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("decodeOptions(%s): error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || o.UntrustedProject != tc.untrusted {
			t.Errorf("decodeOptions(%s): UntrustedProject %v, error %v; want %v", tc.in, o.UntrustedProject, err, tc.untrusted)
		}
	}
}

// TestDecodeRequest_messages: the error messages keep encoding/json's
// wording.
func TestDecodeRequest_messages(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"bogus":1}`, `bad request: json: unknown field "bogus"`},
		{`{"op":1}`, `bad request: json: cannot unmarshal number 1 into Go struct field Request.op of type string`},
		{`{"op":`, `bad request: unexpected end of JSON input`},
		{`{"op" 1}`, `bad request: invalid character '1' after object key`},
		{`[]`, `bad request: json: cannot unmarshal array into Go value of type core.Request`},
		{`{"op":"discover","cwd":"/","home":"/","options":{"x":1}}`, `invalid options: json: unknown field "x"`},
		{`{"op":"nope"}`, `bad request: unknown op "nope"`},
	} {
		got := string(Call(nil, []byte(tc.in)))
		if !strings.Contains(got, `"message":`+string(mustJSON(tc.want))) {
			t.Errorf("Call(%s) = %s, want message %q", tc.in, got, tc.want)
		}
	}
}

func mustJSON(s string) []byte {
	w := newWriter(nil)
	w.Str(s)
	return w.B
}

// valueJSON renders a frontmatter value the way every runtime returns it.
func valueJSON(v core.Value) string {
	w := newWriter(nil)
	w.value(v)
	return string(w.B)
}

// TestRawJSON: encoding/json reads and writes a RawJSON verbatim.
func TestRawJSON(t *testing.T) {
	var req Request
	if err := json.Unmarshal([]byte(`{"options": {"a" : [1]} }`), &req); err != nil || string(req.Options) != `{"a" : [1]}` {
		t.Fatalf("Unmarshal: %q, %v", req.Options, err)
	}
	out, err := json.Marshal(Request{Op: "discover", Options: RawJSON(`{"enabled":false}`)})
	if err != nil || string(out) != `{"op":"discover","options":{"enabled":false}}` {
		t.Fatalf("Marshal: %s, %v", out, err)
	}
}
