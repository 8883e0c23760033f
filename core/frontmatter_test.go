package core

import (
	"encoding/hex"
	"runtime"
	"strings"
	"testing"
)

// valueJSON renders a frontmatter Value the way every runtime returns it.
func valueJSON(v Value) string {
	var w jsonWriter
	w.value(v)
	return string(w.b)
}

// fm wraps YAML lines in frontmatter delimiters.
func fm(lines ...string) string {
	return "---\n" + strings.Join(lines, "\n") + "\n---\n"
}

func TestDecodeText_S4(t *testing.T) {
	t.Parallel()
	// The replacements of invalid UTF-8 are those of the WHATWG decoder,
	// checked with Node 20: new TextDecoder().decode(Buffer.from(hex, "hex")).
	tests := []struct {
		name, hex, want string
	}{
		{"empty", "", ""},
		{"ascii", "6162", "ab"},
		{"BOM removed", "efbbbf61", "a"},
		{"only one BOM removed", "efbbbfefbbbf61", "\uFEFFa"},
		{"BOM only", "efbbbf", ""},
		{"CRLF", "610d0a62", "a\nb"},
		{"lone CR", "610d62", "a\nb"},
		{"CR CR LF", "0d0d0a", "\n\n"},
		{"CRLF CR CRLF", "0d0a0d0d0a", "\n\n\n"},
		{"valid 2-byte", "c3a9", "é"},
		{"valid 4-byte", "f09f9880", "😀"},
		{"truncated 3-byte then ascii", "61e282", "a\uFFFD"},
		{"truncated 3-byte", "e282", "\uFFFD"},
		{"overlong C0", "c0af", "\uFFFD\uFFFD"},
		{"surrogate ED A0", "eda080", "\uFFFD\uFFFD\uFFFD"},
		{"surrogate ED BF", "edbfbf", "\uFFFD\uFFFD\uFFFD"},
		{"truncated 4-byte", "f09f98", "\uFFFD"},
		{"truncated 4-byte then FF", "f09f98ff", "\uFFFD\uFFFD"},
		{"FF", "ff", "\uFFFD"},
		{"lone continuation", "80", "\uFFFD"},
		{"overlong E0 80", "e0808061", "\uFFFD\uFFFD\uFFFDa"},
		{"above U+10FFFF", "f4908080", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"lowest 4-byte", "f0908080", "\U00010000"},
		{"lone lead at end", "c2", "\uFFFD"},
		{"bad second continuation", "e1a0c0", "\uFFFD\uFFFD"},
		{"5-byte lead", "f8888080", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"invalid then CRLF", "ff0d0a", "\uFFFD\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data, err := hex.DecodeString(tc.hex)
			if err != nil {
				t.Fatal(err)
			}
			if got := DecodeText(data); got != tc.want {
				t.Errorf("DecodeText(%s) = %q, want %q", tc.hex, got, tc.want)
			}
		})
	}
}

func TestParseSkillFile_delimiters_S5(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		fm, body string
		line     int
		empty    bool
	}{
		{"plain", "---\nname: a\n---\nbody\n", `{"name":"a"}`, "body", 1, false},
		{"CRLF", "---\r\nname: a\r\n---\r\nbody\r\nmore\r\n", `{"name":"a"}`, "body\nmore", 1, false},
		{"lone CR", "---\rname: a\r---\rbody", `{"name":"a"}`, "body", 1, false},
		{"BOM", "\xEF\xBB\xBF---\nname: a\n---\nbody", `{"name":"a"}`, "body", 1, false},
		{"leading blank lines", "\n  \n\t\n---\nname: a\n---\nbody", `{"name":"a"}`, "body", 4, false},
		{"delimiters with spaces", "  ---  \nname: a\n\t---\t\nbody", `{"name":"a"}`, "body", 1, false},
		{"NBSP is whitespace", "\u00a0---\u00a0\nname: a\n---\nbody", `{"name":"a"}`, "body", 1, false},
		{"---yaml opens nothing", "---yaml\nname: a\n---\nbody", `{}`, "---yaml\nname: a\n---\nbody", 0, false},
		{"---- opens nothing", "----\nname: a\n---\nbody", `{}`, "----\nname: a\n---\nbody", 0, false},
		{"text first", "text\n---\nname: a\n---\n", `{}`, "text\n---\nname: a\n---", 0, false},
		{"no closing line", "---\nname: a\nbody\n", `{}`, "---\nname: a\nbody", 0, false},
		{"--- alone", "---", `{}`, "---", 0, false},
		{"--- alone with newline", "---\n", `{}`, "---", 0, false},
		{"empty frontmatter", "---\n---\nbody", `{}`, "body", 1, false},
		{"closing line is the last line", "---\nname: a\n---", `{"name":"a"}`, "", 1, false},
		{"closing line with trailing spaces at EOF", "---\nname: a\n---  ", `{"name":"a"}`, "", 1, false},
		{"body trimmed", "---\nname: a\n---\n\n  body  \n\n", `{"name":"a"}`, "body", 1, false},
		{"--- in the body stays", "---\nname: a\n---\nx\n---\ny", `{"name":"a"}`, "x\n---\ny", 1, false},
		{"empty file", "", `{}`, "", 0, true},
		{"BOM only", "\xEF\xBB\xBF", `{}`, "", 0, true},
		{"whitespace only", " \n\t\n", `{}`, "", 0, false},
		{"invalid UTF-8 in the body", "---\nname: a\n---\nb\xffc", `{"name":"a"}`, "b\uFFFDc", 1, false},
		{"invalid UTF-8 in a value", "---\nname: a\xff\n---\n", "{\"name\":\"a\uFFFD\"}", "", 1, false},
		{"CRLF inside a block scalar", "---\r\nd: |\r\n  x\r\n  y\r\n---\r\n", `{"d":"x\ny\n"}`, "", 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := ParseSkillFile("p/SKILL.md", []byte(tc.in))
			if got := valueJSON(f.Frontmatter); got != tc.fm {
				t.Errorf("frontmatter = %s, want %s", got, tc.fm)
			}
			if f.Body != tc.body {
				t.Errorf("body = %q, want %q", f.Body, tc.body)
			}
			if f.Line != tc.line {
				t.Errorf("line = %d, want %d", f.Line, tc.line)
			}
			if f.Empty != tc.empty {
				t.Errorf("empty = %v, want %v", f.Empty, tc.empty)
			}
			if len(f.Warnings) != 0 || f.Reject != "" {
				t.Errorf("warnings %q, reject %q; want none", f.Warnings, f.Reject)
			}
		})
	}
}

func TestParseSkillFile_scalars_S6(t *testing.T) {
	t.Parallel()
	// Each value is written after "v: " and checked as JSON.
	tests := []struct{ yaml, json string }{
		// Booleans: YAML 1.2 core, so yes/on/no/off/y stay strings.
		{"true", "true"}, {"True", "true"}, {"TRUE", "true"}, {"false", "false"}, {"FALSE", "false"},
		{"yes", `"yes"`}, {"Yes", `"Yes"`}, {"on", `"on"`}, {"no", `"no"`}, {"off", `"off"`}, {"y", `"y"`}, {"tRUE", `"tRUE"`},
		// Null.
		{"", "null"}, {"~", "null"}, {"null", "null"}, {"Null", "null"}, {"NULL", "null"}, {"nULL", `"nULL"`},
		// Integers: decimal even with leading zeros; hex, octal 0o, binary.
		{"12", "12"}, {"+12", "12"}, {"-12", "-12"}, {"012", "12"}, {"-012", "-12"}, {"+012", "12"}, {"08", "8"},
		{"0x10", "16"}, {"-0x10", "-16"}, {"0o17", "15"}, {"-0o17", "-15"}, {"0b101", "5"}, {"-0b101", "-5"},
		{"1_000", "1000"}, {"0", "0"}, {"-0", "0"}, {"00", "0"},
		{"9223372036854775807", "9223372036854776000"}, {"12345678901234567890", "12345678901234567000"},
		{"01777777777777777777777", "1.7777777777777778e+21"}, {"0_12", "12"}, {"0b", `"0b"`},
		{"0o", `"0o"`}, {"0x", `"0x"`}, {"1:2", `"1:2"`}, {"1-2", `"1-2"`},
		// Floats; infinities and NaN are null in JSON.
		{"1.5", "1.5"}, {"-1.5", "-1.5"}, {".5", "0.5"}, {"+.5", "0.5"}, {"1.", "1"}, {"1e3", "1000"}, {"1E-7", "1e-7"},
		{"-0.0", "0"}, {"1e400", `"1e400"`}, {".5.5", `".5.5"`},
		{".inf", "null"}, {".Inf", "null"}, {"+.INF", "null"}, {"-.inf", "null"}, {".nan", "null"}, {".NaN", "null"}, {".nAn", `".nAn"`},
		// Timestamps stay the string as written.
		{"2001-12-14", `"2001-12-14"`}, {"2001-12-14t21:59:43.10-05:00", `"2001-12-14t21:59:43.10-05:00"`},
		{"2001-12-14 21:59:43.10", `"2001-12-14 21:59:43.10"`}, {"2001-1-2", `"2001-1-2"`}, {"!!timestamp 2001-12-14", `"2001-12-14"`},
		// Quoted and block scalars are strings.
		{`"12"`, `"12"`}, {`'true'`, `"true"`}, {`"~"`, `"~"`}, {`""`, `""`}, {`"a\tb\u00e9"`, `"a\tbé"`}, {`'it''s'`, `"it's"`},
		{"|\n  a\n  b", `"a\nb\n"`}, {">-\n  a\n  b", `"a b"`}, {"|+\n  a\n", `"a\n\n"`},
		{"multi\n  line plain", `"multi line plain"`}, {"a # comment", `"a"`}, {"# only a comment", "null"},
		// Tags.
		{"!!str 12", `"12"`}, {"!!str", `""`}, {"!!float 3", "3"}, {`!!int "12"`, "12"}, {"!!bool true", "true"},
		{"!!null ~", "null"}, {"!!binary aGVsbG8=", `"aGVsbG8="`}, {"!custom x", `"x"`}, {"!custom 12", `"12"`},
		{"! 12", "12"}, {`! "12"`, `"12"`}, {"<<", `"<<"`},
		// Collections.
		{"[1, a, true]", `[1,"a",true]`}, {"{a: 1, b: [x]}", `{"a":1,"b":["x"]}`}, {"[]", "[]"}, {"{}", "{}"},
		{"\n  - a\n  - 2", `["a",2]`}, {"\n  k: v\n  n: 1", `{"k":"v","n":1}`}, {"\n- a\n- b", `["a","b"]`},
		{"!!set {a, b}", `{"a":null,"b":null}`}, {"!!omap [a: 1]", `[{"a":1}]`},
	}
	for _, tc := range tests {
		t.Run(tc.yaml, func(t *testing.T) {
			t.Parallel()
			f := ParseSkillFile("SKILL.md", []byte(fm("v: "+tc.yaml)))
			if len(f.Warnings) != 0 || f.Reject != "" {
				t.Fatalf("warnings %q, reject %q", f.Warnings, f.Reject)
			}
			v, _ := f.Frontmatter.Get("v")
			if got := valueJSON(v); got != tc.json {
				t.Errorf("v: %s -> %s, want %s", tc.yaml, got, tc.json)
			}
		})
	}
}

func TestParseSkillFile_mappings_S6(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"order kept", fm("b: 1", "a: 2", "c: 3"), `{"b":1,"a":2,"c":3}`},
		{"duplicate key: first position, last value", fm("a: 1", "b: 2", "a: 3"), `{"a":3,"b":2}`},
		{"duplicate nested key", fm("m:", "  x: 1", "  y: 2", "  x: 3"), `{"m":{"x":3,"y":2}}`},
		{"keys as written", fm("1: a", `"quoted key": b`, "~: c", "true: d", "0x10: e", "1.0: f", "'': g"),
			`{"1":"a","quoted key":"b","~":"c","true":"d","0x10":"e","1.0":"f","":"g"}`},
		{"complex key", fm("? k", ": v"), `{"k":"v"}`},
		{"alias as key", fm("&k kk: e", "*k : f"), `{"kk":"f"}`},
		{"anchors and aliases", fm("a: &x {k: 1, j: [2]}", "b: *x", "c: &s str", "d: *s"),
			`{"a":{"k":1,"j":[2]},"b":{"k":1,"j":[2]},"c":"str","d":"str"}`},
		{"alias to a later-redefined anchor", fm("a: &x 1", "b: *x", "c: &x 2", "d: *x"), `{"a":1,"b":1,"c":2,"d":2}`},
		{"merge: own keys win, merged keys after them",
			fm("base: &b {x: 1, y: 2}", "m:", "  <<: *b", "  y: 3", "  z: 4"),
			`{"base":{"x":1,"y":2},"m":{"y":3,"z":4,"x":1}}`},
		{"merge: first source wins",
			fm("b: &b {x: 1, y: 2}", "o: &o {y: 20, z: 30}", "m:", "  <<: [*b, *o]", "  x: 0"),
			`{"b":{"x":1,"y":2},"o":{"y":20,"z":30},"m":{"x":0,"y":2,"z":30}}`},
		{"merge: the last << wins", fm("b: &b {x: 1}", "o: &o {y: 2}", "m:", "  <<: *b", "  <<: *o"),
			`{"b":{"x":1},"o":{"y":2},"m":{"y":2}}`},
		{"merge: inline mapping", fm("m:", "  <<: {p: 1}", "  q: 2"), `{"m":{"q":2,"p":1}}`},
		{"merge: nested merge", fm("a: &a {x: 1}", "b: &b {<<: *a, y: 2}", "c: {<<: *b, z: 3}"),
			`{"a":{"x":1},"b":{"y":2,"x":1},"c":{"z":3,"y":2,"x":1}}`},
		{"merge at the top level", fm("<<: {a: 1, b: 2}", "b: 3"), `{"b":3,"a":1}`},
		{"quoted << is a key", fm(`"<<": {a: 1}`), `{"<<":{"a":1}}`},
		{"!!str << is a key", fm(`!!str <<: 1`), `{"<<":1}`},
		{"null values", fm("a:", "b: ~", "c: null"), `{"a":null,"b":null,"c":null}`},
		{"unicode keys and values", fm("名前: 値", "emoji: 😀"), `{"名前":"値","emoji":"😀"}`},
		{"document end marker ends the YAML", fm("a: 1", "...", "b: 2"), `{"a":1}`},
		{"directive-free %", fm("a: 100%"), `{"a":"100%"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := ParseSkillFile("SKILL.md", []byte(tc.in))
			if len(f.Warnings) != 0 || f.Reject != "" {
				t.Fatalf("warnings %q, reject %q", f.Warnings, f.Reject)
			}
			if got := valueJSON(f.Frontmatter); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestParseSkillFile_notMapping_S6(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, warning string
	}{
		{"empty", fm(""), ""},
		{"blank lines", fm("", "  ", ""), ""},
		{"comments only", fm("# a", "  # b"), ""},
		{"explicit null", fm("~"), ""},
		{"null word", fm("null"), ""},
		{"sequence", "\n---\n- a\n- b\n---\n", "dir/SKILL.md:3: frontmatter is a list, not a mapping; write one key: value per line (e.g. name: my-skill)"},
		{"flow sequence", fm("# c", "[a, b]"), "dir/SKILL.md:3: frontmatter is a list, not a mapping; write one key: value per line (e.g. name: my-skill)"},
		{"plain text", fm("name my-skill"), "dir/SKILL.md:2: frontmatter is a single value, not a mapping; write one key: value per line (e.g. name: my-skill)"},
		{"number", fm("12"), "dir/SKILL.md:2: frontmatter is a single value, not a mapping; write one key: value per line (e.g. name: my-skill)"},
		{"quoted string", fm(`"a: b"`), "dir/SKILL.md:2: frontmatter is a single value, not a mapping; write one key: value per line (e.g. name: my-skill)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := ParseSkillFile("dir/SKILL.md", []byte(tc.in))
			if got := valueJSON(f.Frontmatter); got != "{}" {
				t.Errorf("frontmatter = %s, want {}", got)
			}
			var want []string
			if tc.warning != "" {
				want = []string{tc.warning}
			}
			if strings.Join(f.Warnings, "\n") != strings.Join(want, "\n") || f.Reject != "" {
				t.Errorf("warnings = %q, reject %q\nwant %q", f.Warnings, f.Reject, want)
			}
		})
	}
}

func TestParseSkillFile_invalidYAML_S7(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		fm       string // the recovered mapping
		warning  string
	}{
		{"mapping value in a plain value (the SPEC's example)",
			fm("name: x", "description: Use when: X", "z: 1"),
			`{"name":"x","description":"Use when: X","z":"1"}`,
			`SKILL.md:3: invalid YAML (mapping values are not allowed in this context); quote the value: description: "Use when: X"`},
		{"line counted in the whole file, blank lines and CRLF before",
			"\r\n\r\n---\r\nname: x\r\ndescription: a: b\r\n---\r\nbody",
			`{"name":"x","description":"a: b"}`,
			`SKILL.md:5: invalid YAML (mapping values are not allowed in this context); quote the value: description: "a: b"`},
		{"value with double quotes gets single quotes",
			fm(`description: say "hi": now`),
			`{"description":"say \"hi\": now"}`,
			`SKILL.md:2: invalid YAML (mapping values are not allowed in this context); quote the value: description: 'say "hi": now'`},
		{"value with both quotes is escaped",
			fm(`description: it's "x": y`),
			`{"description":"it's \"x\": y"}`,
			`SKILL.md:2: invalid YAML (mapping values are not allowed in this context); quote the value: description: "it's \"x\": y"`},
		{"indented key under a value",
			fm("a: 1", " b: 2"),
			`{"a":"1"}`,
			`SKILL.md:3: invalid YAML (mapping values are not allowed in this context); indent this line like the keys above it: a key that has a value cannot hold nested keys`},
		{"brackets then text",
			fm("name: x", "description: [WIP] does things"),
			`{"name":"x","description":"[WIP] does things"}`,
			`SKILL.md:3: invalid YAML (did not find expected key); quote the value: description: "[WIP] does things"`},
		{"quoted then text",
			fm("name: x", `description: "quoted" then more`),
			`{"name":"x","description":"\"quoted\" then more"}`,
			`SKILL.md:3: invalid YAML (did not find expected key); quote the value: description: '"quoted" then more'`},
		{"apostrophe inside single quotes",
			fm("name: x", "description: 'It's broken'"),
			`{"name":"x","description":"'It's broken'"}`,
			`SKILL.md:3: invalid YAML (did not find expected key); quote the value: description: "It's broken"`},
		{"unclosed flow list",
			fm("name: [a, b", "x: 1"),
			`{"name":"[a, b","x":"1"}`,
			`SKILL.md:2: invalid YAML (did not find expected ',' or ']'); close the [ with ]: name: [a, b]`},
		{"unclosed flow mapping on a later line",
			fm("name: x", "meta: {a: 1", "x: 1"),
			`{"name":"x","meta":"{a: 1","x":"1"}`,
			`SKILL.md:3: invalid YAML (did not find expected ',' or '}'); close the { with }: meta: {a: 1}`},
		{"flow list then text",
			fm("tags: [a], b"),
			`{"tags":"[a], b"}`,
			`SKILL.md:2: invalid YAML (did not find expected key); quote the value: tags: "[a], b"`},
		{"empty key",
			fm(": v"),
			`{}`,
			`SKILL.md:2: invalid YAML (did not find expected key); check the indentation: the keys of one mapping start in the same column`},
		{"backtick",
			fm("name: x", "description: `code` x"),
			"{\"name\":\"x\",\"description\":\"`code` x\"}",
			"SKILL.md:3: invalid YAML (found character that cannot start any token); quote the value: description: \"`code` x\""},
		{"at sign",
			fm("description: @mention"),
			`{"description":"@mention"}`,
			`SKILL.md:2: invalid YAML (found character that cannot start any token); quote the value: description: "@mention"`},
		{"tab indentation",
			fm("name: x", "meta:", "\tb: 1"),
			`{"name":"x","meta":""}`,
			`SKILL.md:4: invalid YAML (found character that cannot start any token); indent with spaces, not tabs`},
		{"tab before a nested key",
			fm("meta:", "  a: 1", "\t b: 1"),
			`{"meta":""}`,
			`SKILL.md:4: invalid YAML (found a tab character that violates indentation); indent with spaces, not tabs`},
		{"unclosed double quote",
			fm("name: x", `description: "abc`, "", "z: 1"),
			`{"name":"x","description":"\"abc","z":"1"}`,
			`SKILL.md:3: invalid YAML (found unexpected end of stream); close the quote: description: "abc"`},
		{"unknown escape",
			fm(`description: "C:\path"`),
			`{"description":"\"C:\\path\""}`,
			`SKILL.md:2: invalid YAML (found unknown escape character); quote the value: description: 'C:\path'`},
		{"asterisk starts an alias",
			fm("name: x", "description: *bold* text"),
			`{"name":"x","description":"*bold* text"}`,
			`SKILL.md:3: invalid YAML (did not find expected alphabetic or numeric character); quote the value: description: "*bold* text"`},
		{"unknown anchor",
			fm("name: x", "description: *bold"),
			`{"name":"x","description":"*bold"}`,
			`SKILL.md:3: invalid YAML (unknown anchor 'bold' referenced); quote the value: description: "*bold"`},
		{"list on the key's line",
			fm("name: x", "tags: - a"),
			`{"name":"x","tags":"- a"}`,
			`SKILL.md:3: invalid YAML (block sequence entries are not allowed in this context); write the list as tags: [a, b], or put each "- item" on its own line below tags:`},
		{"list item among keys",
			fm("name: x", "- a"),
			`{"name":"x"}`,
			`SKILL.md:3: invalid YAML (did not find expected key); check the indentation: the keys of one mapping start in the same column`},
		{"key inside a list",
			fm("a:", "  - b", "  c: d"),
			`{"a":""}`,
			`SKILL.md:3: invalid YAML (did not find expected '-' indicator); check the indentation: the items of one list start with - in the same column`},
		{"---foo closes nothing",
			fm("name: a", "---foo", "b: 1"),
			`{"name":"a","b":"1"}`,
			`SKILL.md:3: invalid YAML (could not find expected ':'); write the line as key: value, or indent it to continue the value above`},
		{"directive",
			fm("name: x", "%foo"),
			`{"name":"x"}`,
			`SKILL.md:3: invalid YAML (found unknown directive name); quote or indent the line: % at the start of a line starts a YAML directive`},
		{"alias cycle",
			fm("name: x", "a: &a [*a]"),
			`{"name":"x","a":"&a [*a]"}`,
			`SKILL.md:3: invalid YAML (anchor 'a' value contains itself); remove the alias from inside the value it names`},
		{"merge cycle",
			fm("a: &a {<<: *a}"),
			`{"a":"&a {<<: *a}"}`,
			`SKILL.md:2: invalid YAML (anchor 'a' value contains itself); remove the alias from inside the value it names`},
		{"tag that does not fit",
			fm("name: x", "n: !!int abc"),
			`{"name":"x","n":"!!int abc"}`,
			"SKILL.md:3: invalid YAML (cannot decode !!str `abc` as a !!int); remove the tag, or write a value that matches it"},
		{"explicit !!bool yes",
			fm("on: !!bool yes"),
			`{"on":"!!bool yes"}`,
			"SKILL.md:2: invalid YAML (cannot decode !!str `yes` as a !!bool); remove the tag, or write a value that matches it"},
		{"uint64 as !!float",
			fm("n: !!float 18446744073709551615"),
			`{"n":"!!float 18446744073709551615"}`,
			"SKILL.md:2: invalid YAML (cannot decode !!int `18446744073709551615` as a !!float); remove the tag, or write a value that matches it"},
		{"tagged key that does not fit",
			fm("!!int k: 1"),
			`{}`,
			"SKILL.md:2: invalid YAML (cannot decode !!str `k` as a !!int); remove the tag, or write a value that matches it"},
		{"merge of a scalar",
			fm("a: 1", "<<: 3"),
			`{"a":"1"}`,
			`SKILL.md:3: invalid YAML (map merge requires map or sequence of maps as the value); merge only mappings: <<: *anchor or <<: [*a, *b]`},
		{"merge of a list of lists",
			fm("m:", "  <<: [[a]]"),
			`{"m":""}`,
			`SKILL.md:3: invalid YAML (map merge requires map or sequence of maps as the value); merge only mappings: <<: *anchor or <<: [*a, *b]`},
		{"collection as a key",
			fm("? [a]", ": b"),
			`{}`,
			`SKILL.md:2: invalid YAML (invalid map key: a mapping or a sequence cannot be a key); use plain text keys`},
		{"recovery: later lines win, quotes and comments kept, indented lines skipped",
			fm("name: 'x'", "a: b: c", "  nested: 1", "name: \"y\" # c", "bad key: 1", "k_1-A:v", "empty:"),
			`{"name":"\"y\" # c","a":"b: c","k_1-A":"v","empty":""}`,
			`SKILL.md:3: invalid YAML (mapping values are not allowed in this context); quote the value: a: "b: c"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := ParseSkillFile("SKILL.md", []byte(tc.in))
			if got := valueJSON(f.Frontmatter); got != tc.fm {
				t.Errorf("frontmatter = %s\nwant          %s", got, tc.fm)
			}
			if len(f.Warnings) != 1 || f.Warnings[0] != tc.warning || f.Reject != "" {
				t.Errorf("warnings = %q (reject %q)\nwant       [%q]", f.Warnings, f.Reject, tc.warning)
			}
		})
	}
}

func TestParseSkillFile_limits_issue7(t *testing.T) {
	nest := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
	}
	block := func(n int) string { // n nested block mappings, the first at the top
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(strings.Repeat(" ", i) + "a:\n")
		}
		return b.String()
	}
	laughs := []string{"a0: &a0 [x, x, x, x, x, x, x, x, x]"}
	for i := 1; i < 10; i++ {
		laughs = append(laughs, "a"+string(rune('0'+i))+": &a"+string(rune('0'+i))+" ["+strings.Repeat("*a"+string(rune('0'+i-1))+", ", 8)+"*a"+string(rune('0'+i-1))+"]")
	}
	chain := []string{"b0: &b0 1"} // each anchor nests the previous one 5 levels deeper
	for i := 1; i < 20; i++ {
		chain = append(chain, "b"+itoa(i)+": &b"+itoa(i)+" "+strings.Repeat("[", 5)+"*b"+itoa(i-1)+strings.Repeat("]", 5))
	}
	depth := func(line int) string {
		return "SKILL.md:" + itoa(line) + ": frontmatter is nested deeper than 64 levels; flatten it (skill skipped)"
	}
	tests := []struct {
		name, in string
		reject   string // the Reject message, or "" when accepted
		warning  string // a prefix of the only warning, or ""
	}{
		{"64 KiB exactly", fm("a: " + strings.Repeat("x", MaxFrontmatterBytes-4)), "", ""},
		{"64 KiB + 1", fm("a: " + strings.Repeat("x", MaxFrontmatterBytes-3)),
			"SKILL.md:1: frontmatter is larger than 64 KiB (65537 bytes); move long text into the body of SKILL.md (skill skipped)", ""},
		{"64 KiB + 1 after a blank line", "\n" + fm("a: "+strings.Repeat("é", MaxFrontmatterBytes/2)),
			"SKILL.md:2: frontmatter is larger than 64 KiB (65540 bytes); move long text into the body of SKILL.md (skill skipped)", ""},
		{"depth 64, flow", fm("a: " + nest("[", "]", 63)), "", ""},
		{"depth 65, flow", fm("a: " + nest("[", "]", 64)), depth(2), ""},
		{"depth 64, flow mappings", fm("a: " + nest("{a: ", "}", 63)), "", ""},
		{"depth 65, flow mappings", fm("a: " + nest("{a: ", "}", 64)), depth(2), ""},
		{"depth 64, block", fm(block(64)), "", ""},
		{"depth 65, block", fm(block(65)), depth(66), ""},
		{"depth 64, compact lists", fm("a:", strings.Repeat("- ", 63)+"x"), "", ""},
		{"depth 65, compact lists", fm("a:", strings.Repeat("- ", 64)+"x"), depth(3), ""},
		{"depth through aliases: the line of the value that goes too deep", fm(chain...), depth(15), ""},
		{"9000-deep flow mapping", fm("a: " + nest("{a: ", "}", 9000)), depth(2), ""},
		{"9000-deep flow list behind fake closers", fm("a: " + strings.Repeat(`["]", `, 9000) + strings.Repeat("]", 9000)), depth(2), ""},
		{"9000-deep compact lists", fm("a:", strings.Repeat("- ", 9000)+"x"), depth(3), ""},
		{"5000-deep complex keys", fm(strings.Repeat("? ", 5000) + "x"), depth(2), ""},
		{"billion laughs", fm(laughs...), "", "SKILL.md:2: invalid YAML (document contains excessive aliasing); "},
	}
	// The work is bounded by what a parse allocates, measured before
	// t.Parallel, while no other test runs: a time bound fails on a loaded
	// machine and passes a slow parser on a fast one.
	for _, tc := range tests {
		in := []byte(tc.in)
		if got, bound := allocatedBy(func() { ParseSkillFile("SKILL.md", in) }), parseAllocBound(len(in)); got > bound {
			t.Errorf("%s: parsing %d bytes allocated %d bytes, over %d", tc.name, len(in), got, bound)
		} else if testing.Verbose() {
			t.Logf("%s: %d bytes in, %d allocated (%.1f a byte)", tc.name, len(in), got, float64(got)/float64(len(in)))
		}
	}
	t.Parallel()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := ParseSkillFile("SKILL.md", []byte(tc.in))
			if f.Reject != tc.reject {
				t.Errorf("reject = %q\nwant     %q", f.Reject, tc.reject)
			}
			if tc.reject != "" && (valueJSON(f.Frontmatter) != "{}" || len(f.Warnings) != 0) {
				t.Errorf("rejected file: frontmatter %s, warnings %q", valueJSON(f.Frontmatter), f.Warnings)
			}
			switch {
			case tc.warning == "" && len(f.Warnings) != 0:
				t.Errorf("warnings = %q, want none", f.Warnings)
			case tc.warning != "" && (len(f.Warnings) != 1 || !strings.HasPrefix(f.Warnings[0], tc.warning)):
				t.Errorf("warnings = %q, want one starting %q", f.Warnings, tc.warning)
			}
		})
	}
}

func itoa(i int) string {
	var w jsonWriter
	w.num(float64(i))
	return string(w.b)
}

// allocatedBy returns the bytes f allocates on the heap. Call it while no
// other test runs (before t.Parallel, or in a fuzz target), or the count
// takes in what they allocate.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// parseAllocBound is what ParseSkillFile may allocate for n bytes of input:
// linear in n, so that the hostile inputs of TestParseSkillFile_limits
// (billion laughs, deep nesting) cost no more than their size. They
// allocate at most 620 bytes a byte of input, under 400 KB in all.
func parseAllocBound(n int) uint64 { return 1<<20 + 64*uint64(n) }
