package wire

import (
	"bytes"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/internal/record"
)

// A Session runs one host's calls, one after another (the wasm module has
// one per instance), and owns the buffers its replies are written into. It
// remembers the last discovery's inputs ([record.New]), and answers
// the same discover request, when the filesystem answers every one of
// those calls as it did ([record.Inputs.Unchanged]), with the reply still in
// its buffer: no SKILL.md is read or parsed again (SPEC S61). Only the
// discover op is answered so; every other op runs as [AppendCall] runs it,
// into a buffer of its own, so that an editor's match between two
// discoveries leaves the last discovery's reply standing.
//
// A session's first discovery records nothing, so that a process that
// discovers once (a script, the CLI) pays nothing for it; the second and
// later ones record, from then on a discovery either stands or is made
// again and recorded. A record spoiled by too many recent files (a tree
// just written) is not tried again until they are old enough
// (record.Inputs.RetryAt): until then discoveries run as without a session.
// The zero Session is ready to use.
type Session struct {
	reply       []byte         // the last discover op's reply
	other       []byte         // the last reply of another op
	request     []byte         // the discover request whose reply is in reply
	inputs      *record.Inputs // what that discovery asked; nil when none stands
	discoveries int
	retryAt     int64 // no discovery is recorded before this time (record.Inputs.RetryAt)
	// Now is the clock a recording reads (nanoseconds since the Unix
	// epoch); nil is the system's. Tests set it.
	Now func() int64
	// Reused counts the discoveries answered from the last reply.
	Reused int
}

// Call runs request against fsys, as [AppendCall] does, and returns the
// reply, which stays valid until the next call of any method of s.
func (s *Session) Call(fsys core.FS, request []byte) []byte {
	if s.reusable(fsys, request) {
		s.Reused++
		return s.reply
	}
	var inputs *record.Inputs
	record := func(fsys core.FS) core.FS {
		s.inputs = nil // the reply is about to be written over
		if s.discoveries++; s.discoveries < 2 {
			return fsys
		}
		now := time.Now().UnixNano()
		if s.Now != nil {
			now = s.Now()
		}
		if now < s.retryAt {
			return fsys // the last record met files too recent: as fast as without
		}
		fsys, inputs = record.New(fsys, now)
		return fsys
	}
	out, failed, discover := appendCall(s.other[:0], fsys, request, &discoverHooks{buffer: s.reply[:0], record: record})
	if !discover {
		s.other = out
		return out
	}
	s.reply = out
	switch {
	case inputs == nil || failed:
	case inputs.Whole():
		s.inputs, s.request = inputs, append(s.request[:0], request...)
	default:
		s.retryAt = inputs.RetryAt()
	}
	return out
}

// reusable reports whether the reply in s.reply answers request over fsys.
// A panic while asking (a host that broke the ABI) is not an answer: the
// request is then made in full, whose own recovery reports it.
func (s *Session) reusable(fsys core.FS, request []byte) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return s.inputs != nil && bytes.Equal(request, s.request) && s.inputs.Unchanged(fsys)
}

// Release drops a reply buffer, and what it holds, when its capacity is
// over limit: one huge reply then does not pin its memory for the life of
// the session.
func (s *Session) Release(limit int) {
	if cap(s.reply) > limit {
		s.reply, s.inputs = nil, nil
	}
	if cap(s.other) > limit {
		s.other = nil
	}
}
