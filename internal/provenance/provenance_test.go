package provenance

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepository is the check `make test` runs: every file git tracks or
// would track, from the repository root.
func TestRepository(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout (%v)", err)
	}
	var names []string
	for _, n := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if _, err := os.Lstat(filepath.Join(root, n)); err == nil { // deleted but not yet committed: gone
			names = append(names, n)
		}
	}
	if len(names) < 50 {
		t.Fatalf("only %d files listed: the listing is broken", len(names))
	}
	for _, p := range Check(names, func(n string) ([]byte, error) { return os.ReadFile(filepath.Join(root, n)) }) {
		t.Error(p)
	}
	if _, err := os.Stat(filepath.Join(root, "LICENSE")); err != nil {
		t.Errorf("the root LICENSE is missing: %v", err)
	}
}

// TestCheck: what copied code looks like is reported, our own is not.
func TestCheck(t *testing.T) {
	c := "Copy" + "right"
	files := map[string]string{
		"LICENSE":                      "MIT License\n",
		"pkg/x.go":                     "// " + c + " (c) 2026 " + Ours + "\npackage core\n",
		"pkg/doc.go":                   "// Package core: the copyright of a SKILL.md is its author's.\npackage core\n",
		"pkg/README.md":                "# " + c + " 2019 Someone\n",
		"third_party/yaml/LICENSE":     "...",
		"vendor/x/NOTICE.txt":          "...",
		"third/COPYING":                "...",
		"src/licence-check.js":         "export const x = 1;\n",
		"third_party/yaml/scannerc.go": "//\n// " + c + " (c) 2011-2019 Canonical Ltd\n// " + c + " (c) 2006-2010 Kirill Simonov\npackage yaml\n",
		"src/lib.mjs":                  "/*! SPDX-" + "License-Identifier: MIT */\n",
		"x/glob.ts":                    "// Licensed " + "under the Apache License, Version 2.0\n",
		"a/b.go":                       "// " + c + " 2009 The Go Authors. All rights reserved.\n",
	}
	want := map[string]bool{
		"third_party/yaml/LICENSE": true, "vendor/x/NOTICE.txt": true, "third/COPYING": true,
		"third_party/yaml/scannerc.go": true, "src/lib.mjs": true, "x/glob.ts": true, "a/b.go": true,
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	got := map[string]bool{}
	for _, p := range Check(names, func(n string) ([]byte, error) { return []byte(files[n]), nil }) {
		got[p[:strings.IndexByte(p, ':')]] = true
	}
	for n := range files {
		if got[n] != want[n] {
			t.Errorf("%s: reported %v, want %v", n, got[n], want[n])
		}
	}
}
