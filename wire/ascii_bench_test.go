package wire

import (
	"strconv"
	"testing"

	"github.com/skilldex/skilldex/core"
)

// benchReply is a discovery reply of n skills, a fifth of whose
// descriptions have a dash, as js/bench/workspace.mjs's do.
func benchReply(n int, dash bool) []byte {
	r := &core.Result{}
	for i := range n {
		desc := "Use when the task needs the tool; reads the files it names and reports what it found in them"
		if dash && i%5 == 0 {
			desc = "Use when the task needs the tool \u2014 reads the files it names and reports what it found"
		}
		name := "skill-" + strconv.Itoa(i)
		r.Skills = append(r.Skills, core.Skill{Name: name, Description: desc, FilePath: "/home/u/.claude/skills/" + name + "/SKILL.md",
			BaseDir: "/home/u/.claude/skills/" + name, Source: "claude:user", Provider: "claude", ProviderName: "Claude Code", Level: "user",
			SourcePath: "/home/u/.claude/skills/" + name + "/SKILL.md", Frontmatter: &core.Map{}})
	}
	return AppendJSON(nil, r)
}

// BenchmarkEscapeNonASCII: the ASCII transport of a 1,000-skill reply,
// against copying the reply (the baseline: compare the ns/op).
func BenchmarkEscapeNonASCII(b *testing.B) {
	for _, tc := range []struct {
		name string
		dash bool
		f    func(buf, reply []byte) []byte
	}{
		{"copy", true, func(buf, reply []byte) []byte { return append(buf[:0], reply...) }},
		{"ascii", false, func(buf, reply []byte) []byte { return escapeNonASCII(append(buf[:0], reply...), 0) }},
		{"dashes", true, func(buf, reply []byte) []byte { return escapeNonASCII(append(buf[:0], reply...), 0) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			reply := benchReply(1000, tc.dash)
			buf := make([]byte, 0, len(reply)+len(reply)/8)
			b.SetBytes(int64(len(reply)))
			for b.Loop() {
				buf = tc.f(buf, reply)
			}
		})
	}
}
