package core_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/skilldex/skilldex/core"
)

// asOperationError is an error type whose As method (not its chain) yields
// a *core.Error, as errors.As allows.
type asOperationError struct{ code string }

func (e asOperationError) Error() string { return "as " + e.code }

func (e asOperationError) As(target any) bool {
	if p, ok := target.(**core.Error); ok {
		*p = &core.Error{Code: e.code, Message: "as"}
		return true
	}
	return false
}

// TestOperationCode: OperationCode answers an operation's code (S2 keeps
// POSIX codes for filesystem failures), and the two helpers never answer
// for each other: a PATH_TRAVERSAL error is no EIO, a PathError is no
// operation code.
func TestOperationCode(t *testing.T) {
	traversal := &core.Error{Code: core.CodePathTraversal, Message: "skill path must not contain '..'"}
	eacces := &core.PathError{Op: "lstat", Path: "/s", Code: core.EACCES}
	for _, tc := range []struct {
		name      string
		err       error
		operation string
		posix     string
	}{
		{"nil", nil, "", ""},
		{"an operation error", traversal, core.CodePathTraversal, core.EIO},
		{"wrapped", fmt.Errorf("resolve: %w", traversal), core.CodePathTraversal, core.EIO},
		{"joined, the first operation error", errors.Join(errors.New("a"), &core.Error{Code: core.CodeNotFound}, traversal), core.CodeNotFound, core.EIO},
		{"an As method", fmt.Errorf("w: %w", asOperationError{core.CodeUnknownSkill}), core.CodeUnknownSkill, core.EIO},
		{"a filesystem failure", eacces, core.CodeInternal, core.EACCES},
		{"both, joined", errors.Join(eacces, traversal), core.CodePathTraversal, core.EACCES},
		{"a context error", fmt.Errorf("discover: %w", context.Canceled), core.CodeInternal, core.EIO},
		{"a plain error", errors.New("plain"), core.CodeInternal, core.EIO},
	} {
		if got := core.OperationCode(tc.err); got != tc.operation {
			t.Errorf("%s: OperationCode = %q, want %q", tc.name, got, tc.operation)
		}
		if got := core.POSIXCode(tc.err); got != tc.posix {
			t.Errorf("%s: POSIXCode = %q, want %q", tc.name, got, tc.posix)
		}
		var e *core.Error
		if errors.As(tc.err, &e) && e.Code != core.OperationCode(tc.err) {
			t.Errorf("%s: OperationCode = %q, errors.As finds %q", tc.name, core.OperationCode(tc.err), e.Code)
		}
	}
}
