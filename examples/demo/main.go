// Command demo discovers the skills of the bundled example workspace
// (examples/workspace) with the native Go engine and prints what it found,
// what it skipped and why, and the warnings. `make demo` runs it.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/osfs"
)

func main() {
	ws, err := filepath.Abs("examples/workspace")
	if err != nil {
		fail(err)
	}
	if len(os.Args) > 1 {
		ws, _ = filepath.Abs(os.Args[1])
	}
	home := filepath.ToSlash(filepath.Join(ws, "home"))
	cwd := filepath.ToSlash(filepath.Join(ws, "projects", "webapp"))
	short := func(p string) string { return strings.Replace(p, filepath.ToSlash(ws), "<workspace>", 1) }

	fsys := osfs.New()
	res, err := core.Discover(context.Background(), fsys, cwd, home, core.DefaultOptions())
	if err != nil {
		fail(err)
	}
	fmt.Printf("skilldex demo\n  home: %s\n  cwd:  %s\n\n", short(home), short(cwd))

	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "NAME\tSOURCE\tDESCRIPTION\tPATH\n")
	for _, s := range res.Skills {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, s.Source, truncate(s.Description, 48), short(s.FilePath))
	}
	tw.Flush()

	if len(res.Shadowed) > 0 {
		fmt.Printf("\nnot loaded:\n")
		for _, s := range res.Shadowed {
			why := s.Reason
			if s.Winner != "" {
				why += ", lost to " + short(s.Winner)
			}
			fmt.Printf("  %s (%s) %s: %s\n", s.Name, s.Source, short(s.FilePath), why)
		}
	}
	if len(res.Warnings) > 0 {
		fmt.Printf("\nwarnings:\n")
		for _, w := range res.Warnings {
			fmt.Printf("  %s\n", short(w.Message))
		}
	}

	// A model reads a skill's resources through skill:// URLs.
	const url = "skill://pdf/forms.md"
	r, err := core.Resolve(context.Background(), fsys, url, res.Skills)
	if err != nil {
		fail(err)
	}
	fmt.Printf("\n%s (%s, %d bytes, from %s):\n%s", url, r.ContentType, r.Size, short(r.SourcePath), indent(r.Content))
	if _, err := core.Resolve(context.Background(), fsys, "skill://pdf/../../../.ssh/id_rsa", res.Skills); err != nil {
		fmt.Printf("\nskill://pdf/../../../.ssh/id_rsa is refused: %v\n", err)
	}

	// The skills as the model sees them in its system prompt.
	p, err := core.RenderPrompt(res.Skills, core.PromptOptions{ReadTool: true, Format: "markdown"})
	if err != nil {
		fail(err)
	}
	fmt.Printf("\nsystem prompt (markdown):\n%s", indent(short(p.Text)))
}

func indent(s string) string {
	return "  | " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  | ") + "\n"
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "demo:", err)
	os.Exit(1)
}
