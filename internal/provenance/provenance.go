// Package provenance checks that the repository holds only code written for
// skilldex: libraries come in through go.mod and package.json,
// at a version, never as copied source. `make test` runs its test on the
// files git tracks or would track (tracked, plus untracked and not ignored).
//
// A file is reported when
//   - it is a licence or notice file (LICENSE, LICENCE, NOTICE, COPYING,
//     with any suffix or extension, in any case) anywhere but the root: a
//     copied project brings its licence along;
//   - it is source (.go, .js, .mjs, .cjs, .ts) and has a copyright line
//     that is not ours ("Copyright (c) 2026 the skilldex authors"), or a
//     licence header (an SPDX identifier, "Licensed under", the MIT or BSD
//     grant): that is how copied code announces itself.
//
// The root LICENSE is skilldex's own; js/THIRD_PARTY_NOTICES carries the
// notices of what the shipped .wasm files contain (the licences, not their
// code) and is not source.
package provenance

import (
	"bufio"
	"bytes"
	"path"
	"regexp"
	"strings"
)

// Ours is the copyright holder of the repository's own code.
const Ours = "the skilldex authors"

// The phrases are assembled so that this file does not match them itself.
var (
	copyrightLine = regexp.MustCompile(`(?i)\bcopy` + `right\b\s*(\(c\)|©|[0-9]{4})`)
	licenceHeader = regexp.MustCompile(`(?i)(SPDX-` + `License-Identifier|Licensed ` + `under the|Permission is hereby ` +
		`granted|Redistribution and use in source ` + `and binary forms)`)
	licenceName = regexp.MustCompile(`(?i)^(licen[cs]e|notice|copying)([._-].*)?$`)
)

var sourceExt = map[string]bool{".go": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true}

// Check returns one problem per offending file: name is the slash-separated
// path from the repository root, read returns its contents.
func Check(names []string, read func(name string) ([]byte, error)) []string {
	var problems []string
	for _, name := range names {
		base := path.Base(name)
		if licenceName.MatchString(base) && !sourceExt[path.Ext(base)] && name != base {
			problems = append(problems, name+": a licence or notice file outside the root: third-party source is not "+
				"copied into this repository; depend on the library through go.mod or package.json instead")
			continue
		}
		if !sourceExt[path.Ext(name)] {
			continue
		}
		data, err := read(name)
		if err != nil {
			problems = append(problems, name+": "+err.Error())
			continue
		}
		if line, n := foreignHeader(data); n > 0 {
			problems = append(problems, name+":"+itoa(n)+": "+strings.TrimSpace(line)+
				": third-party source is not copied into this repository; depend on the library at a version instead")
		}
	}
	return problems
}

// foreignHeader returns the first line of data that announces another
// author's copyright or a licence, and its 1-based number (0 for none).
func foreignHeader(data []byte) (string, int) {
	s := bufio.NewScanner(bytes.NewReader(data))
	s.Buffer(nil, 1<<20)
	for n := 1; s.Scan(); n++ {
		line := s.Text()
		if copyrightLine.MatchString(line) && !strings.Contains(line, Ours) || licenceHeader.MatchString(line) {
			return line, n
		}
	}
	return "", 0
}

func itoa(n int) string {
	b := []byte{}
	for ; n > 0 || len(b) == 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
