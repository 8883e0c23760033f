package core

import (
	"context"

	"github.com/skilldex/skilldex/internal/panictext"
)

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

// canceledError is the error of an operation whose context was done before
// it finished: it wraps ctx.Err(), so errors.Is(err, context.Canceled) (or
// context.DeadlineExceeded) holds, and names the operation. An operation
// checks its context before it starts and between the roots, skills,
// folders or files it reads, so it stops within a few filesystem calls of
// the cancellation; it returns no partial result.
type canceledError struct {
	Op  string // "discover", "resolve", ...
	Err error  // ctx.Err()
}

func (e *canceledError) Error() string { return e.Op + ": " + e.Err.Error() }

func (e *canceledError) Unwrap() error { return e.Err }

// canceled returns the error of op stopped by ctx when ctx is done, else
// nil.
func canceled(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return &canceledError{Op: op, Err: err}
	}
	return nil
}

// panicText is the message of a recovered panic value.
func panicText(r any) string { return panictext.Of(r) }
