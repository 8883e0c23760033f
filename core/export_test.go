package core

// HeadFirstRead is headFirstRead, for the external tests (prefetch_test.go):
// the buffer size of discovery's first read of a SKILL.md, which its hint
// names.
const HeadFirstRead = headFirstRead
