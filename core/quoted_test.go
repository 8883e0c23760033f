package core

import "testing"

var quotedCases = []string{
	`"plain"`, `"plain" # after`, `"a\"b"`, `"a\\b"`, `"unclosed`, `""`, `"\u00e9 and more text here"`,
	`'plain'`, `'it''s'`, `'unclosed`, `''`, `''''`, `'a' b`, `"long text without escapes, more than eight"`,
	`"long text with an escape at the end, \n"`, `"é—ü in the middle" rest`, `"a"b"`, `'a'b'`, `"\`,
}

// TestScanQuoted: the word-at-a-time path of scanQuoted answers what the
// byte loop of scanQuotedEscaped does.
func TestScanQuoted(t *testing.T) {
	for _, text := range quotedCases {
		checkScanQuoted(t, text)
	}
}

func FuzzScanQuoted(f *testing.F) {
	for _, text := range quotedCases {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if text == "" || text[0] != '"' && text[0] != '\'' {
			return
		}
		checkScanQuoted(t, text)
	})
}

func checkScanQuoted(t *testing.T, text string) {
	t.Helper()
	v, rest, ok := scanQuoted(text)
	wv, wrest, wok := scanQuotedEscaped(text)
	if v != wv || rest != wrest || ok != wok {
		t.Fatalf("scanQuoted(%q) = %q, %q, %v; the byte loop says %q, %q, %v", text, v, rest, ok, wv, wrest, wok)
	}
}
