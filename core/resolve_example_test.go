package core_test

import (
	"context"
	"fmt"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
)

func ExampleResolve() {
	fsys := memfs.New()
	_ = fsys.WriteFile("/skills/pdf/SKILL.md", []byte("---\nname: pdf\ndescription: PDFs.\n---\nRead references/tables.md.\n"))
	_ = fsys.WriteFile("/skills/pdf/references/tables.md", []byte("Use pdfplumber.\n"))
	skills := []core.Skill{{Name: "pdf", Description: "PDFs.", FilePath: "/skills/pdf/SKILL.md", BaseDir: "/skills/pdf"}}

	r, err := core.Resolve(context.Background(), fsys, "skill://pdf/references/tables.md", skills)
	fmt.Printf("%q %s %d %v\n", r.Content, r.ContentType, r.Size, err)

	_, err = core.Resolve(context.Background(), fsys, "skill://pdf/%2e%2e/secret", skills)
	fmt.Println(err.(*core.Error).Code, err)
	// Output:
	// "Use pdfplumber.\n" text/markdown 16 <nil>
	// PATH_TRAVERSAL Path traversal (..) is not allowed in skill:// URLs
}

func ExampleRenderPrompt() {
	skills := []core.Skill{
		{Name: "pdf", Description: "Extract text and tables from PDF files, fill forms, merge and split documents. Use when the user mentions PDFs.",
			FilePath: "/skills/pdf/SKILL.md"},
		{Name: "docx", Description: "Edit Word documents.", FilePath: "/skills/docx/SKILL.md"},
	}
	p, _ := core.RenderPrompt(skills, core.PromptOptions{ReadTool: true, Format: "xml", MaxChars: 360})
	fmt.Println(p.Text)
	fmt.Println("omitted:", p.Omitted, "shortened:", p.Shortened)
	// Output:
	// <available_skills>
	// <skill>
	// <name>
	// docx
	// </name>
	// <description>
	// Edit Word documents.
	// </description>
	// <location>
	// /skills/docx/SKILL.md
	// </location>
	// </skill>
	// <skill>
	// <name>
	// pdf
	// </name>
	// <description>
	// Extract text and tables from PDF files, fill forms, merge and split documents.…
	// </description>
	// <location>
	// /skills/pdf/SKILL.md
	// </location>
	// </skill>
	// </available_skills>
	// omitted: [] shortened: [pdf]
}
