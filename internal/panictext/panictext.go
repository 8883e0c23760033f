// Package panictext turns a recovered panic value into a message, for the
// places that must not let a panic escape: the YAML parser in core (a
// SKILL.md must never take the host down) and the wire's call boundary (a
// Go panic never crosses the wasm boundary).
package panictext

// Of is the message of a recovered panic value.
func Of(r any) string {
	switch r := r.(type) {
	case error:
		return r.Error()
	case string:
		return r
	case interface{ String() string }:
		return r.String()
	}
	return "a panic"
}
