package core

import (
	"errors"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/gobwas/glob"
	"github.com/gobwas/glob/syntax"
)

// Glob matching in linear time (SPEC S57).
//
// The S24 name globs and the S55 path globs have github.com/gobwas/glob's
// syntax and meaning, but gobwas' matcher backtracks: `*a*a*a*ac*` against
// a 4000-character name takes seconds, one more star minutes, and the
// restart points it stores can exhaust memory. So gobwas only checks a
// pattern (its syntax errors are the S24/S55 warnings); the pattern is then
// parsed again here, from gobwas' own lexer, into the same tree gobwas
// builds (the sequence normalisation and the globstar rewrite change what a
// pattern means, so they are redone), and matched by simulating that tree
// as a Thompson NFA: every input position is visited once, with at most
// one thread per instruction, so a match costs O(len(program) × len(input))
// whatever the pattern. FuzzGlobMatch checks the result equals gobwas' and
// the work stays within that bound.
//
// The program grows with the pattern (at most three instructions per byte),
// so a pattern is bounded too: over MaxGlobBytes bytes it is not compiled
// and is a warning instead (code glob-too-complex), which keeps one
// pattern's match of a 4 KiB path to a few million steps.

// MaxGlobBytes bounds an S24 or S55 glob pattern, in bytes (SPEC S57).
const MaxGlobBytes = 256

// CodeGlobTooComplex names the S57 warning for a pattern over the bound.
const CodeGlobTooComplex = "glob-too-complex"

// errGlobTooLong is what compileGlob returns for a pattern over MaxGlobBytes.
var errGlobTooLong = errors.New(CodeGlobTooComplex)

// globTooComplexFix is the S57 fix: what the author can simplify.
const globTooComplexFix = "shorten it or split it into several patterns"

// globTooComplexMessage is the S57 warning: `<subject>: glob-too-complex:
// the glob pattern "<pattern>" in <where> is <n> bytes long, over the
// limit of 256; the pattern is skipped (<fix>)`.
func globTooComplexMessage(subject, pattern, where string) string {
	return subject + ": " + CodeGlobTooComplex + ": the glob pattern " + quoteInput(pattern) + " in " + where + " is " + strconv.Itoa(len(pattern)) +
		" bytes long, over the limit of " + strconv.Itoa(MaxGlobBytes) + "; the pattern is skipped (" + globTooComplexFix + ")"
}

// globTooComplexDiagnostic is the S57 warning as a Diagnostic about path
// ("" for the options).
func globTooComplexDiagnostic(path, subject, pattern, where string) Diagnostic {
	return Diagnostic{Path: path, Code: DiagGlobTooComplex, Severity: SeverityWarning,
		Message: globTooComplexMessage(subject, pattern, where), Fix: globTooComplexFix}
}

// globProgram is a compiled pattern: instructions for the NFA simulation.
type globProgram struct {
	inst    []globInst
	classes []globClass
	sep     []rune

	// buf and stack are match's scratch, kept between its calls (a
	// program is used by one goroutine: each Match or discovery compiles
	// its own).
	buf   []int
	stack []int
}

// The instruction kinds. Consuming: gByte (one byte equal to b), gRune
// (one decoded rune, not a separator when sepCheck), gClass (one decoded
// rune in classes[x]), gMatch (the end of the input). Not consuming: gSplit
// (go to x and y), gJmp (go to x).
const (
	gByte uint8 = iota
	gRune
	gClass
	gMatch
	gSplit
	gJmp
)

type globInst struct {
	op       uint8
	b        byte
	sepCheck bool
	x, y     int
}

// globClass is a character class: a range lo-hi or a sorted set, possibly
// negated.
type globClass struct {
	isRange bool
	lo, hi  rune
	set     []rune
	not     bool
}

func (c *globClass) has(r rune) bool {
	var in bool
	if c.isRange {
		in = c.lo <= r && r <= c.hi
	} else {
		_, in = slices.BinarySearch(c.set, r)
	}
	return in != c.not
}

// compileGlob checks src with gobwas (a syntax error is gobwas' error) and
// compiles it for the linear matcher. sep are the separators (none for
// S24, '/' for S55); globstar is gobwas' Compiler.Globstar. A pattern over
// MaxGlobBytes is errGlobTooLong, before anything else looks at it.
func compileGlob(src string, sep []rune, globstar bool) (*globProgram, error) {
	if len(src) > MaxGlobBytes {
		return nil, errGlobTooLong
	}
	if _, err := (glob.Compiler{Separators: sep, Globstar: globstar}).Compile(src); err != nil {
		return nil, err
	}
	tree, err := parseGlobTree(src)
	if err != nil {
		return nil, err // gobwas accepted it: not reached
	}
	tree = simplifyGlob(tree)
	if globstar && len(sep) > 0 {
		tree, _ = globstarGlob(tree, sep, true)
	}
	p := &globProgram{sep: sep}
	p.emit(tree)
	p.inst = append(p.inst, globInst{op: gMatch})
	return p, nil
}

// The tree: a literal, `?`, a class, a star (sepFree for `**`), a
// sequence, a group of alternatives, or nothing (an empty alternative).
type globKind uint8

const (
	gnText globKind = iota
	gnAny1
	gnClass
	gnStar
	gnSeq
	gnAlt
	gnVoid
)

type globNode struct {
	kind    globKind
	text    string
	sepFree bool // gnStar: `**`
	class   globClass
	kids    []*globNode
}

// parseGlobTree builds gobwas' parse tree of src from gobwas' lexer: leaf
// tokens push a node; `{` opens a group and its first alternative, `,`
// closes an alternative and opens the next, `}` closes the last one and
// the group. A group's alternative with no terms is a void.
func parseGlobTree(src string) (*globNode, error) {
	type open struct {
		group bool // the group's mark, else an alternative's
		at    int
	}
	var (
		stack []*globNode
		marks []open
	)
	seqOf := func(at int) *globNode {
		n := &globNode{kind: gnSeq, kids: slices.Clone(stack[at:])}
		stack = stack[:at]
		return n
	}
	lex := syntax.NewLexer(src)
	for {
		tok := lex.Next()
		switch tok.Type {
		case syntax.EOF:
			if len(marks) != 0 {
				return nil, errors.New("unclosed {")
			}
			return &globNode{kind: gnSeq, kids: stack}, nil
		case syntax.Text:
			stack = append(stack, &globNode{kind: gnText, text: tok.Data})
		case syntax.Single:
			stack = append(stack, &globNode{kind: gnAny1})
		case syntax.Any:
			stack = append(stack, &globNode{kind: gnStar})
		case syntax.Super:
			stack = append(stack, &globNode{kind: gnStar, sepFree: true})
		case syntax.RangeOpen:
			c, err := parseGlobClass(lex)
			if err != nil {
				return nil, err
			}
			stack = append(stack, &globNode{kind: gnClass, class: c})
		case syntax.TermsOpen:
			marks = append(marks, open{true, len(stack)}, open{false, len(stack)})
		case syntax.TermSeparator:
			if len(marks) == 0 || marks[len(marks)-1].group {
				return nil, errors.New("unexpected ,")
			}
			at := marks[len(marks)-1].at
			stack = append(stack, seqOf(at))
			marks[len(marks)-1].at = len(stack)
		case syntax.TermsClose:
			if len(marks) < 2 {
				return nil, errors.New("unexpected }")
			}
			alt := marks[len(marks)-1].at
			stack = append(stack, seqOf(alt))
			group := marks[len(marks)-2].at
			marks = marks[:len(marks)-2]
			stack = append(stack, &globNode{kind: gnAlt, kids: seqOf(group).kids})
		default:
			return nil, errors.New("unexpected token")
		}
	}
}

func parseGlobClass(lex *syntax.Lexer) (globClass, error) {
	var (
		c      globClass
		lo, hi rune = -1, -1
		chars  string
		isSet  bool
	)
	for {
		tok := lex.Next()
		switch tok.Type {
		case syntax.Not:
			c.not = true
		case syntax.RangeLo:
			lo, _ = utf8.DecodeRuneInString(tok.Data)
		case syntax.RangeHi:
			hi, _ = utf8.DecodeRuneInString(tok.Data)
		case syntax.RangeBetween:
		case syntax.Text:
			chars, isSet = tok.Data, true
		case syntax.RangeClose:
			if isSet == (lo >= 0 && hi >= 0) {
				return c, errors.New("could not parse range")
			}
			if !isSet {
				c.isRange, c.lo, c.hi = true, lo, hi
				return c, nil
			}
			for _, r := range chars {
				c.set = append(c.set, r)
			}
			slices.Sort(c.set)
			c.set = slices.Compact(c.set)
			return c, nil
		default:
			return c, errors.New("bad class")
		}
	}
}

// simplifyGlob gives the tree gobwas' canonical shape, bottom up: in a
// sequence, nested sequences are inlined, voids dropped, adjacent literals
// merged and adjacent stars merged into the more general one; a sequence
// or group of one is that one, of none a void. The shape decides where
// the globstar rewrite applies (`***/x` is `**` then "/x").
func simplifyGlob(n *globNode) *globNode {
	if n.kind != gnSeq && n.kind != gnAlt {
		return n
	}
	for i, k := range n.kids {
		n.kids[i] = simplifyGlob(k)
	}
	kids := n.kids
	if n.kind == gnSeq {
		var out []*globNode
		var push func(k *globNode)
		push = func(k *globNode) {
			switch k.kind {
			case gnSeq:
				for _, c := range k.kids {
					push(c)
				}
				return
			case gnVoid:
				return
			case gnText:
				if len(out) > 0 && out[len(out)-1].kind == gnText {
					out[len(out)-1] = &globNode{kind: gnText, text: out[len(out)-1].text + k.text}
					return
				}
			case gnStar:
				if len(out) > 0 && out[len(out)-1].kind == gnStar {
					if k.sepFree {
						out[len(out)-1] = k
					}
					return
				}
			}
			out = append(out, k)
		}
		for _, k := range kids {
			push(k)
		}
		kids = out
	}
	switch len(kids) {
	case 0:
		return &globNode{kind: gnVoid}
	case 1:
		return kids[0]
	}
	return &globNode{kind: n.kind, kids: kids}
}

// globstarGlob is gobwas' Compiler.Globstar: a `**` that begins a segment
// (the pattern's start, or after a literal ending with a separator, or
// after a group all of whose alternatives end so) and is followed by a
// literal beginning with a separator s becomes {**s,}, zero or more whole
// segments. It returns whether n ends at a segment start.
func globstarGlob(n *globNode, sep []rune, start bool) (*globNode, bool) {
	switch n.kind {
	case gnAlt:
		end := true
		for i, k := range n.kids {
			var e bool
			n.kids[i], e = globstarGlob(k, sep, start)
			end = end && e
		}
		return n, end
	case gnSeq:
		v := n.kids
		out := make([]*globNode, 0, len(v))
		prev := ""
		for i := 0; i < len(v); i++ {
			k := v[i]
			if start && i+1 < len(v) && k.kind == gnStar && k.sepFree && v[i+1].kind == gnText {
				r, w := utf8.DecodeRuneInString(v[i+1].text)
				if slices.Contains(sep, r) {
					s, rest := v[i+1].text[:w], v[i+1].text[w:]
					if s != prev {
						out = append(out, &globNode{kind: gnAlt, kids: []*globNode{
							{kind: gnSeq, kids: []*globNode{k, {kind: gnText, text: s}}},
							{kind: gnVoid},
						}})
						prev = s
					}
					if rest != "" {
						v[i+1] = &globNode{kind: gnText, text: rest}
					} else {
						i++
					}
					continue
				}
			}
			prev = ""
			k, start = globstarGlob(k, sep, start)
			out = append(out, k)
		}
		if len(out) == 1 {
			return out[0], start
		}
		return &globNode{kind: gnSeq, kids: out}, start
	case gnText:
		r, _ := utf8.DecodeLastRuneInString(n.text)
		return n, slices.Contains(sep, r)
	case gnVoid:
		return n, start
	}
	return n, false
}

// emit appends n's instructions (Thompson's construction).
func (p *globProgram) emit(n *globNode) {
	switch n.kind {
	case gnText:
		for i := 0; i < len(n.text); i++ {
			p.inst = append(p.inst, globInst{op: gByte, b: n.text[i]})
		}
	case gnAny1:
		p.inst = append(p.inst, globInst{op: gRune, sepCheck: true})
	case gnClass:
		p.inst = append(p.inst, globInst{op: gClass, x: len(p.classes)})
		p.classes = append(p.classes, n.class)
	case gnStar:
		// L: split L+1, L+3; L+1: rune; L+2: jmp L; L+3:
		l := len(p.inst)
		p.inst = append(p.inst,
			globInst{op: gSplit, x: l + 1, y: l + 3},
			globInst{op: gRune, sepCheck: !n.sepFree},
			globInst{op: gJmp, x: l})
	case gnSeq:
		for _, k := range n.kids {
			p.emit(k)
		}
	case gnAlt:
		// split a1, s2; a1...; jmp end; s2: split a2, s3; ...; last alt.
		var jmps []int
		for i, k := range n.kids {
			split := -1
			if i < len(n.kids)-1 {
				split = len(p.inst)
				p.inst = append(p.inst, globInst{op: gSplit, x: split + 1})
			}
			p.emit(k)
			if split >= 0 {
				jmps = append(jmps, len(p.inst))
				p.inst = append(p.inst, globInst{op: gJmp})
				p.inst[split].y = len(p.inst)
			}
		}
		for _, j := range jmps {
			p.inst[j].x = len(p.inst)
		}
	case gnVoid:
	}
}

// globSet is a sparse set of instruction indexes (the threads at one input
// position).
type globSet struct {
	dense  []int
	sparse []int
}

func (s *globSet) has(pc int) bool {
	i := s.sparse[pc]
	return i < len(s.dense) && s.dense[i] == pc
}

// match reports whether s matches, and the steps it took: one per thread
// added at a position and one per thread run there, at most
// 2 × len(p.inst) × (len(s)+1) (FuzzGlobMatch checks it).
func (p *globProgram) match(s string) (bool, int) {
	n := len(p.inst)
	// A rune is at most 4 bytes: the threads live at positions i..i+4.
	var ring [5]globSet
	if len(p.buf) < 2*5*n {
		p.buf = make([]int, 2*5*n)
	}
	buf := p.buf
	for k := range ring {
		ring[k] = globSet{dense: buf[2*k*n : 2*k*n : 2*k*n+n], sparse: buf[2*k*n+n : 2*k*n+2*n]}
	}
	steps := 0
	stack := p.stack[:0]
	defer func() { p.stack = stack[:0] }()
	add := func(set *globSet, pc int) {
		stack = append(stack[:0], pc)
		for len(stack) > 0 {
			pc := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if set.has(pc) {
				continue
			}
			steps++
			set.sparse[pc] = len(set.dense)
			set.dense = append(set.dense, pc)
			switch in := &p.inst[pc]; in.op {
			case gSplit:
				stack = append(stack, in.y, in.x)
			case gJmp:
				stack = append(stack, in.x)
			}
		}
	}
	add(&ring[0], 0)
	live := 1 // the positions ahead that hold threads
	for i := 0; i <= len(s) && live > 0; i++ {
		cur := &ring[i%5]
		if len(cur.dense) == 0 {
			continue
		}
		live--
		var r rune
		w := 0
		if i < len(s) {
			r, w = utf8.DecodeRuneInString(s[i:])
		}
		for _, pc := range cur.dense {
			steps++
			in := &p.inst[pc]
			next := 0
			switch in.op {
			case gMatch:
				if i == len(s) {
					return true, steps
				}
			case gByte:
				if i < len(s) && s[i] == in.b {
					next = 1
				}
			case gRune:
				if w > 0 && !(in.sepCheck && slices.Contains(p.sep, r)) {
					next = w
				}
			case gClass:
				if w > 0 && p.classes[in.x].has(r) {
					next = w
				}
			}
			if next > 0 {
				set := &ring[(i+next)%5]
				if len(set.dense) == 0 {
					live++
				}
				add(set, pc+1)
			}
		}
		cur.dense = cur.dense[:0]
	}
	return false, steps
}
