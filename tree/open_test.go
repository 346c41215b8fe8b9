package tree_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// TestOpen reads every form of spec. The expected shapes are read off the
// files by hand: c.taxonomy gives cs two children with Root no label, b.tree
// read as a taxonomy one child, and read as an edge list makes Root a node.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"b.tree":     "Root\tcs\ncs\tcs.lg\n",
		"c.taxonomy": "Root\tcs\ncs\tcs.lg\tcs.cv\n",
		"plain.tree": "cs\tcs.lg\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		spec     string
		file     string // SpecFile
		root     bool   // Root is a label
		children int    // children of cs
	}{
		{"$D/c.taxonomy", "$D/c.taxonomy", false, 2},
		{"taxonomy:$D/b.tree", "$D/b.tree", false, 1},
		{"edges:$D/b.tree", "$D/b.tree", true, 1},
		{"$D/plain.tree", "$D/plain.tree", false, 1},
	} {
		spec := strings.ReplaceAll(c.spec, "$D", dir)
		if got, want := tree.SpecFile(spec), strings.ReplaceAll(c.file, "$D", dir); got != want {
			t.Errorf("SpecFile(%s) = %s, want %s", c.spec, got, want)
		}
		tr, err := tree.Open(spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, root := tr.Index("Root")
		cs, _ := tr.Index("cs")
		if root != c.root || len(tr.Children(nil, cs)) != c.children {
			t.Errorf("%s: Root a label %v, cs has %d children", c.spec, root, len(tr.Children(nil, cs)))
		}
	}
	_, err := tree.Open(filepath.Join(dir, "b.tree"), nil)
	if err == nil || !strings.Contains(err.Error(), "b.tree:1: a line starts with Root") || !strings.Contains(err.Error(), "taxonomy:") {
		t.Errorf("ambiguous file: error %v", err)
	}
	if _, err := tree.Open(dir, nil); !errors.Is(err, syscall.EISDIR) || !strings.Contains(err.Error(), "is a directory, not a file") {
		t.Errorf("a directory: error %v", err)
	}
	if _, err := tree.Open(filepath.Join(dir, "absent.tree"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: error %v", err)
	}
}

// TestOpenGenerated checks chain:N and star:N against Chain and Star, and
// the malformed counts that are spec errors.
func TestOpenGenerated(t *testing.T) {
	for spec, want := range map[string]*tree.Tree{"chain:4": tree.Chain(4), "star:3": tree.Star(3), "chain:007": tree.Chain(7)} {
		got, err := tree.Open(spec, nil)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if got.Hash() != want.Hash() || got.Len() != want.Len() {
			t.Errorf("%s: got %v", spec, got)
		}
		if tree.SpecFile(spec) != "" {
			t.Errorf("SpecFile(%s) = %q, want \"\"", spec, tree.SpecFile(spec))
		}
	}
	for _, spec := range []string{"chain:0", "star:-1", "chain:x", "star:", "chain:1e3", "star:50000001"} {
		_, err := tree.Open(spec, nil)
		if !errors.Is(err, tree.ErrSpec) || !strings.HasPrefix(err.Error(), spec+": ") {
			t.Errorf("%s: error %v, want a spec error starting with the spec", spec, err)
		}
	}
}

// TestRef checks Hash against a hash computed outside Go:
// tree.Chain(3).Format() is "0\t1\t1\n1\t2\t1\n", whose SHA-256 by
// `printf '0\t1\t1\n1\t2\t1\n' | sha256sum` is e17aca84…3141c02.
func TestRef(t *testing.T) {
	const want = "e17aca845f00659942e04a67d9e74a58872b247f7125bac9920fc514d3141c02"
	ch := tree.Chain(3)
	ref := tree.RefOf(ch, "chain:3")
	if ref.Source != "chain:3" || ref.SHA256 != want || ch.Hash() != want {
		t.Errorf("RefOf = %+v, want source chain:3 and sha256 %s", ref, want)
	}
	if !ref.Matches(tree.Chain(3)) || ref.Matches(tree.Star(3)) || ref.Matches(tree.Chain(4)) {
		t.Error("Matches: want true for Chain(3) only")
	}
}
