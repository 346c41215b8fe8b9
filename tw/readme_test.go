package tw_test

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeExample: the "From Go" program of README.md is Example of this
// package, with its imports, line for line (the Example's lines are read
// from example_test.go, not copied here). Main's README showed the body
// alone, without the import paths.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "## From Go")
	_, block, ok2 := strings.Cut(after, "```go\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal(`README.md has no "From Go" section with a go block`)
	}
	_, body, _ := strings.Cut(string(src), "func Example() {\n")
	body, _, _ = strings.Cut(body, "\t// Output:")
	_, imports, _ := strings.Cut(string(src), "import (\n")
	imports, _, _ = strings.Cut(imports, ")")
	want := "package main\n\nimport (\n" + imports + ")\n\nfunc main() {\n" + body + "}\n"
	// The README shows the output as a comment on the line that prints it.
	want = strings.Replace(want, "Distance(a, b))\n", "Distance(a, b)) // 3\n", 1)
	if block != want {
		t.Errorf("README.md's program:\n%s\nExample as a program:\n%s", block, want)
	}
}
