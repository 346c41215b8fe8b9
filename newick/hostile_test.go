package newick

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil/hostile"
)

// allocated returns the bytes fn allocates (runtime.MemStats.TotalAlloc,
// garbage included): an upper bound of what it held at once.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestHostileText reads, under a limit, texts made to allocate per byte,
// scaled down from a probe of the reader (a 200 MB unterminated
// "(a,a,a,…" took 4.1 GB; 300 MB of '(' asked for 12 GB): 8 MB of each.
// Both are refused with ErrTooLarge before they are parsed, having
// allocated only the file's bytes.
func TestHostileText(t *testing.T) {
	const size = 8 << 20
	const limit = 64 << 20 // the text fits, its nodes do not
	dir := t.TempDir()
	for name, text := range map[string]string{
		"unterminated": "(" + strings.Repeat("a,", size/2),
		"parentheses":  strings.Repeat("(", size),
	} {
		path := filepath.Join(dir, name+".nwk")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var err error
		got := allocated(func() { _, err = ReadFile(path, &Options{MaxBytes: limit}) })
		if !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), path+": ") {
			t.Errorf("%s: error %v, want ErrTooLarge naming the file", name, err)
		}
		if got > size+1<<20 {
			t.Errorf("%s: allocated %d bytes for a %d-byte file", name, got, size)
		}
	}
}

// TestNodeBytes checks NodeBytes against what reading takes: trees of
// 2¹⁶ tips (a star, a caterpillar) are read under a limit of the text and
// NodeBytes a node, and allocate less than that.
func TestNodeBytes(t *testing.T) {
	const n = 1 << 16
	tips := make([]string, n)
	for i := range tips {
		tips[i] = "t" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "_" + strconv.Itoa(i)
	}
	star := hostile.Newick(tips...)
	var sb strings.Builder
	sb.WriteString(strings.Repeat("(", n-1))
	sb.WriteString(tips[0])
	for _, s := range tips[1:] {
		sb.WriteString("," + s + ":1)")
	}
	sb.WriteString(";")
	for name, text := range map[string]string{"star": star, "caterpillar": sb.String()} {
		nodes := 1 + strings.Count(text, "(") + strings.Count(text, ",")
		limit := int64(len(text)) + NodeBytes*int64(nodes)
		var err error
		got := allocated(func() { _, err = Parse([]byte(text), name, &Options{MaxBytes: limit}) })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got > uint64(limit) {
			t.Errorf("%s: %d nodes allocated %d bytes, more than the text and NodeBytes a node (%d)", name, nodes, got, limit)
		}
		if _, err := Parse([]byte(text), name, &Options{MaxBytes: limit - 1}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: a byte under the limit: %v, want ErrTooLarge", name, err)
		}
	}
}

// TestHostileArtifact reads a Phylogeny artifact whose tree.nwk inflates
// to 300 MiB: refused with ErrTooLarge under the default 256 MiB, before
// it is inflated.
func TestHostileArtifact(t *testing.T) {
	b := hostile.Artifact("tree.nwk", 300<<20, 300<<20)
	var err error
	got := allocated(func() { _, err = Read(strings.NewReader(string(b)), "bomb.qza", nil) })
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("error %v, want ErrTooLarge", err)
	}
	if got > 4*uint64(len(b))+1<<20 {
		t.Errorf("allocated %d bytes for a %d-byte archive", got, len(b))
	}
}
