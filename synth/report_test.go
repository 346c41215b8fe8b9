package synth

import (
	"bytes"
	"strings"
	"testing"
)

// TestWriteSummary: the first lines follow from the sizes asked for; the
// degenerate warning from uniform draws, which saturate the first layer
// (see Config), and is absent with the default normal draws.
func TestWriteSummary(t *testing.T) {
	for _, c := range []struct {
		dist       Dist
		degenerate bool
	}{{Normal, false}, {Uniform, true}} {
		cfg := Config{Nodes: 12, Features: 5, Hidden: 5, X: c.dist, W1: c.dist, W2: c.dist}
		d, err := Generate(cfg, 1, 40, 3)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := d.WriteSummary(&buf, "out"); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(buf.String(), "\n")
		if want := "wrote out: tree.txt (12 nodes), train.jsonl (40 samples), test.jsonl (3 samples), synth.json"; lines[0] != want {
			t.Errorf("line 1 %q, want %q", lines[0], want)
		}
		if !strings.HasPrefix(lines[1], "12 nodes, 5 features (raw), x "+c.dist.String()) {
			t.Errorf("line 2 %q", lines[1])
		}
		if got := strings.Contains(buf.String(), "degenerate"); got != c.degenerate {
			t.Errorf("%s: degenerate warning %v, want %v:\n%s", c.dist, got, c.degenerate, buf.String())
		}
	}
}
