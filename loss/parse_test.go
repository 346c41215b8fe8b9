package loss_test

import (
	"strings"
	"testing"

	"github.com/twl-ldl/twl/loss"
)

// TestParse checks the grammar on names whose meaning is read off by hand.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		name   string
		want   loss.Name
		string string
	}{
		{"kl", loss.Name{}, "kl"},
		{"kl+tw", loss.Name{Term: loss.TermTW, Lambda: 1}, "kl+tw"},
		{"kl+0.5tw", loss.Name{Term: loss.TermTW, Lambda: 0.5, Weighted: true}, "kl+0.5tw"},
		{"kl+sinkhorn", loss.Name{Term: loss.TermSinkhorn, Lambda: 1}, "kl+sinkhorn"},
		{"kl+w1", loss.Name{Term: loss.TermSinkhorn, Lambda: 1}, "kl+sinkhorn"},
		{"kl+0.5w1", loss.Name{Term: loss.TermSinkhorn, Lambda: 0.5, Weighted: true}, "kl+0.5sinkhorn"},
		{"kl+tsw", loss.Name{Term: loss.TermTSW, Lambda: 1}, "kl+tsw"},
		{"kl+2tsw", loss.Name{Term: loss.TermTSW, Lambda: 2, Weighted: true}, "kl+2tsw"},
		{"kl+utw", loss.Name{Term: loss.TermUTW, Lambda: 1}, "kl+utw"},
		{"kl+0.5utw", loss.Name{Term: loss.TermUTW, Lambda: 0.5, Weighted: true}, "kl+0.5utw"},
		{"kl+1e-1tw", loss.Name{Term: loss.TermTW, Lambda: 0.1, Weighted: true}, "kl+0.1tw"},
		{"kl+.25tw", loss.Name{Term: loss.TermTW, Lambda: 0.25, Weighted: true}, "kl+0.25tw"},
	} {
		got, err := loss.Parse(c.name)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.name, err)
			continue
		}
		if got != c.want || got.String() != c.string {
			t.Errorf("Parse(%q) = %+v (%s), want %+v (%s)", c.name, got, got, c.want, c.string)
		}
	}
	for _, name := range []string{"", "KL", "tw", "kl+", "kl+0tw", "kl+-1tw", "kl+0.5", "kl+tv", "kl+1_0tw",
		"kl+0x1tw", "kl+inftw", "kl+nantw", "kl+1e999tw", "kl+0.5tw+tw", "kl+tw ", "w1", "kl+uutw", "kl+0.5uutw"} {
		if n, err := loss.Parse(name); err == nil || !strings.Contains(err.Error(), "unknown loss") {
			t.Errorf("Parse(%q) = %+v, %v; want an unknown-loss error", name, n, err)
		}
	}
}

// TestParsePaperIDs checks that every loss of the paper's tables parses to
// the weight and term its label gives.
func TestParsePaperIDs(t *testing.T) {
	want := map[string]loss.Name{
		"kl": {}, "kl+0.5w1": {Term: loss.TermSinkhorn, Lambda: 0.5, Weighted: true}, "kl+w1": {Term: loss.TermSinkhorn, Lambda: 1},
		"kl+0.5tw": {Term: loss.TermTW, Lambda: 0.5, Weighted: true}, "kl+tw": {Term: loss.TermTW, Lambda: 1},
	}
	for _, id := range loss.PaperIDs {
		if got, err := loss.Parse(id); err != nil || got != want[id] {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", id, got, err, want[id])
		}
	}
}
