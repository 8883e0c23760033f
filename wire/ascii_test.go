package wire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/internal/corpus"
	"github.com/skilldex/skilldex/internal/jsontext"
)

// The ASCII transport (Request.ASCIIReply, ascii.go; wasm/ABI.md#the-ascii-transport):
// the reply is the same JSON value as the canonical one (SPEC S42: a host
// that parses it gets the same result), every byte of it ASCII, and S54's
// digest is the canonical encoding's.

// jsonValue decodes data as encoding/json does, numbers as their
// literals, failing the test on invalid JSON.
func jsonValue(t testing.TB, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%q", err, data)
	}
	return v
}

// unescapeNonASCII undoes the transport: every \uXXXX escape of a
// character over U+007F (a surrogate pair as one character) back to UTF-8,
// so that a canonical reply can be compared with the escaped one byte for
// byte. It needs valid UTF-8 behind the escapes (the engine's replies).
func unescapeNonASCII(t testing.TB, b []byte) []byte {
	t.Helper()
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) && b[i+1] != 'u' {
			out = append(out, b[i], b[i+1]) // \\, \" and the like: not an escape of ours
			i++
			continue
		}
		if b[i] != '\\' {
			out = append(out, b[i])
			continue
		}
		u, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
		if err != nil {
			t.Fatalf("bad escape at %d of %s", i, b)
		}
		r, n := rune(u), 6
		if u >= 0xD800 && u < 0xDC00 {
			lo, err := strconv.ParseUint(string(b[i+8:i+12]), 16, 16)
			if err != nil || b[i+6] != '\\' {
				t.Fatalf("a high surrogate without its pair at %d of %s", i, b)
			}
			r, n = 0x10000+(r-0xD800)<<10+rune(lo)-0xDC00, 12
		}
		if r < utf8.RuneSelf {
			out = append(out, b[i:i+n]...) // a control character the canonical form escapes too
		} else {
			out = utf8.AppendRune(out, r)
		}
		i += n - 1
	}
	return out
}

// isASCII reports whether every byte of b is under 0x80.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func TestEscapeNonASCII(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", ``, ``},
		{"ascii", `{"a":"plain text, long enough for words"}`, `{"a":"plain text, long enough for words"}`},
		{"two bytes", `"café"`, `"caf\u00e9"`},
		{"three bytes", `"a — b"`, `"a \u2014 b"`},
		{"four bytes", `"😀"`, `"\ud83d\ude00"`},
		{"max", "\"\U0010FFFF\"", `"\udbff\udfff"`},
		{"U+FFFD itself", "\"\uFFFD\"", `"\ufffd"`},
		{"canonical escapes kept", `"\"\\\n\u0001é"`, `"\"\\\n\u0001\u00e9"`},
		{"DEL and raw control characters stay", "\"a\x7f\x01\nb\"", "\"a\x7f\x01\nb\""},
		{"at word edges", `"1234567é12345678éé"`, `"1234567\u00e912345678\u00e9\u00e9"`},
		{"long ascii then one", `"` + strings.Repeat("x", 100) + `→"`, `"` + strings.Repeat("x", 100) + `\u2192"`},
		// Not produced by the engine (S4 decodes to valid UTF-8), but never non-ASCII out.
		{"invalid byte", "\"a\xffb\"", `"a\ufffdb"`},
		{"truncated sequence", "\"\xe2\x80\"", `"\ufffd\ufffd"`},
		{"encoded surrogate", "\"\xed\xa0\x80\"", `"\ufffd\ufffd\ufffd"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, prefix := range []string{"", "[1,", "{\"k\u00e9\":"} {
				b := []byte(prefix + tc.in)
				got := escapeNonASCII(b, len(prefix))
				if string(got[:len(prefix)]) != prefix {
					t.Errorf("prefix %q changed to %q", prefix, got[:len(prefix)])
				}
				if string(got[len(prefix):]) != tc.want {
					t.Errorf("escapeNonASCII(%q) = %s, want %s", tc.in, got[len(prefix):], tc.want)
				}
			}
		})
	}
}

// TestEscapeNonASCII_asciiUntouched: an ASCII reply comes back as the same
// slice, not a copy.
func TestEscapeNonASCII_asciiUntouched(t *testing.T) {
	b := []byte(`{"skills":[],"digest":"0123456789abcdef"}`)
	if got := escapeNonASCII(b, 0); &got[0] != &b[0] || len(got) != len(b) {
		t.Error("an ASCII reply was copied")
	}
	if n := testing.AllocsPerRun(100, func() { escapeNonASCII(b, 0) }); n != 0 {
		t.Errorf("%v allocations for an ASCII reply", n)
	}
}

// FuzzEscapeNonASCII: for any text written as a JSON string (jsontext, as
// replies are) and for raw bytes placed inside a string, the escaped form
// is ASCII, decodes to the same value, and undoes to the canonical bytes.
func FuzzEscapeNonASCII(f *testing.F) {
	for _, s := range []string{"", "a", "café — ok", "😀x\u2028", "\xff\xe2\x80", strings.Repeat("é", 20)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := jsontext.Writer{}
		w.Raw(`{"a":[`)
		w.Str(s)
		w.Raw(`,1],"b":`)
		w.Str(s + s)
		w.Byte('}')
		canonical := bytes.Clone(w.B)
		got := escapeNonASCII(w.B, 0)
		if !isASCII(got) {
			t.Fatalf("not ASCII: %q", got)
		}
		if !reflect.DeepEqual(jsonValue(t, got), jsonValue(t, canonical)) {
			t.Fatalf("%s and %s differ in value", got, canonical)
		}
		if back := unescapeNonASCII(t, got); !bytes.Equal(back, canonical) {
			t.Fatalf("unescaped %s, want %s", back, canonical)
		}
		// Raw bytes in a string, invalid UTF-8 included: encoding/json reads
		// an invalid byte as U+FFFD, as the escape writes it.
		raw := []byte(`["` + strings.NewReplacer(`"`, ``, `\`, ``).Replace(s) + `"]`)
		raw = bytes.Map(func(r rune) rune {
			if r < 0x20 {
				return -1
			}
			return r
		}, raw)
		raw = append(raw[:0:0], raw...)
		in := bytes.Clone(raw)
		got = escapeNonASCII(raw, 0)
		if !isASCII(got) {
			t.Fatalf("not ASCII: %q", got)
		}
		if !reflect.DeepEqual(jsonValue(t, got), jsonValue(t, in)) {
			t.Fatalf("%s and %q differ in value", got, in)
		}
	})
}

// TestCall_asciiReply: S42, S54. Through Call, with a discovery whose
// skills have non-ASCII names and descriptions: the ASCII reply is ASCII,
// the same value, the same bytes once unescaped, and so the same digest;
// an ASCII reply is the same bytes; an error reply is escaped too; a bad
// request's reply is canonical.
func TestCall_asciiReply(t *testing.T) {
	t.Parallel()
	fsys := memfs.New()
	for path, text := range map[string]string{
		"/home/u/.claude/skills/cafe/SKILL.md":  "---\nname: cafe\ndescription: Café orders — by the cup 😀\n---\nbody\n",
		"/home/u/.claude/skills/plain/SKILL.md": "---\nname: plain\ndescription: Plain\n---\n",
	} {
		if err := fsys.WriteFile(path, []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	ctx := `"cwd":"/work","home":"/home/u"`
	for _, tc := range []struct {
		name, request string
		ascii         bool // the canonical reply is ASCII
	}{
		{"discover", `{"op":"discover",` + ctx + `}`, false},
		{"explain", `{"op":"explain",` + ctx + `,"name":"cafe"}`, false},
		{"ascii reply", `{"op":"listFiles",` + ctx + `,"name":"plain"}`, true},
		{"error reply", `{"op":"resolve",` + ctx + `,"url":"skill://caf\u00e9"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			canonical := Call(fsys, []byte(tc.request))
			escaped := Call(fsys, []byte(tc.request[:len(tc.request)-1]+`,"asciiReply":true}`))
			if isASCII(canonical) != tc.ascii {
				t.Fatalf("the canonical reply is ASCII: %v, want %v: %s", !tc.ascii, tc.ascii, canonical)
			}
			if !isASCII(escaped) {
				t.Fatalf("asciiReply: not ASCII: %s", escaped)
			}
			if tc.ascii && !bytes.Equal(escaped, canonical) {
				t.Fatalf("an ASCII reply changed: %s, canonical %s", escaped, canonical)
			}
			if !reflect.DeepEqual(jsonValue(t, escaped), jsonValue(t, canonical)) {
				t.Fatalf("values differ:\n%s\n%s", escaped, canonical)
			}
			if back := unescapeNonASCII(t, escaped); !bytes.Equal(back, canonical) {
				t.Fatalf("unescaped %s, want %s", back, canonical)
			}
		})
	}
	t.Run("digest", func(t *testing.T) {
		// S54: the digest is the same string in both (the unescape check
		// above compares it too), and it is the canonical encoding's.
		var a, b struct{ Digest string }
		json.Unmarshal(Call(fsys, []byte(`{"op":"discover",`+ctx+`}`)), &a)
		json.Unmarshal(Call(fsys, []byte(`{"op":"discover",`+ctx+`,"asciiReply":true}`)), &b)
		if a.Digest == "" || a.Digest != b.Digest {
			t.Errorf("digest %q with asciiReply, %q without", b.Digest, a.Digest)
		}
	})
	t.Run("bad request", func(t *testing.T) {
		got := Call(fsys, []byte(`{"asciiReply":true,"op":"discover","bogus\u00e9":1}`))
		if isASCII(got) || !bytes.Contains(got, []byte("BAD_REQUEST")) {
			t.Errorf("a request not understood got %s, want the canonical BAD_REQUEST", got)
		}
	})
	t.Run("not a bool", func(t *testing.T) {
		got := string(Call(fsys, []byte(`{"op":"discover",`+ctx+`,"asciiReply":"yes"}`)))
		if want := "json: cannot unmarshal string into Go struct field Request.asciiReply of type bool"; !strings.Contains(got, want) {
			t.Errorf("got %s, want the message %q", got, want)
		}
	})
}

// TestCall_asciiReplyCorpus: S42. Every case of the conformance corpus,
// asked with asciiReply, gives an ASCII reply that is want.json's value and
// its bytes once unescaped.
func TestCall_asciiReplyCorpus(t *testing.T) {
	t.Parallel()
	cases, err := corpus.LoadDir("../testdata/conformance")
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, c := range cases {
		req := bytes.TrimSpace(c.Request)
		if len(req) < 2 || req[0] != '{' || bytes.HasPrefix(req, []byte("{}")) {
			continue // not an object, or an empty one: nothing to add the field to
		}
		fsys := c.MemFS()
		canonical := Call(fsys, req)
		escaped := Call(c.MemFS(), append([]byte(`{"asciiReply":true,`), req[1:]...))
		if bytes.Contains(canonical, []byte(`"BAD_REQUEST"`)) {
			continue // a bad request's reply stays canonical
		}
		if !isASCII(escaped) {
			t.Errorf("%s: not ASCII: %s", c.Name, escaped)
		}
		asked++
		if back := unescapeNonASCII(t, escaped); !bytes.Equal(back, canonical) {
			t.Errorf("%s: unescaped %s\nwant %s", c.Name, back, canonical)
		}
		if !reflect.DeepEqual(jsonValue(t, escaped), jsonValue(t, c.Want)) {
			t.Errorf("%s: the ASCII reply is not want.json's value: %s", c.Name, escaped)
		}
	}
	if asked == 0 {
		t.Fatal("no corpus case asked")
	}
}
