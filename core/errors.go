package core

import "github.com/skilldex/skilldex/internal/panictext"

// Error codes of failed operations. They are stable: hosts and the JS
// package expose them as the `code` of an error, and tests match on them.
const (
	CodeInvalidArgument = "INVALID_ARGUMENT" // S1: a relative cwd or home, a bad option
	CodeInvalidURL      = "INVALID_URL"      // S29, S31
	CodeMissingName     = "MISSING_NAME"     // S30
	CodeUnknownSkill    = "UNKNOWN_SKILL"    // S30
	CodeAbsolutePath    = "ABSOLUTE_PATH"    // S31
	CodePathTraversal   = "PATH_TRAVERSAL"   // S31
	CodePathEscape      = "PATH_ESCAPE"      // S31
	CodeNotFound        = "NOT_FOUND"        // S31, and explain/validate targets that do not exist
	CodeTooLarge        = "TOO_LARGE"        // S45: a resolve target over 8 MiB, a SKILL.md to expand over 1 MiB
	CodeBadRequest      = "BAD_REQUEST"      // a request the engine cannot decode
	CodeInternal        = "INTERNAL"         // a bug: a recovered panic
)

// Error is a failed operation: a stable code and a message for people.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

func errorf(code, message string) *Error { return &Error{Code: code, Message: message} }

// panicText is the message of a recovered panic value.
func panicText(r any) string { return panictext.Of(r) }
