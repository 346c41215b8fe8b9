package metric_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/tree"
)

// TestScoreMultiLabel: two predictions on the tree of Figure 1 against the
// label sets {dog} and {lizard}, as given, k = 1. By hand: the top label is
// dog (in the set) and snake (not in it, 2 edges from lizard), so
// pseudo_recall is (1 + 0)/2 and top_1_cost (0 + 2)/2; the uniform targets
// are all on dog and all on lizard, so wasserstein is (|.4|·2 + 2)/2 = 1.4
// (the .4 on cat moves 2 edges to dog; snake to lizard is 2).
func TestScoreMultiLabel(t *testing.T) {
	tr, err := tree.Read(strings.NewReader(figure1), "f.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	P, err := labeldist.Read(strings.NewReader("{\"dog\": 0.6, \"cat\": 0.4}\n{\"snake\": 1}\n"), "p.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	Y, err := corpus.Read(strings.NewReader("[\"dog\"]\n[\"lizard\"]\n"), "y.jsonl", tr, &corpus.Options{AsGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := metric.ScoreMultiLabel(tr, P, Y, &metric.MultiLabelOptions{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"pseudo_recall": 0.5, "top_k_cost": 1} {
		if got := rep.Mean[name]; got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if got := rep.LDL.Mean["wasserstein"]; got < 1.4-1e-12 || got > 1.4+1e-12 {
		t.Errorf("wasserstein = %v, want 1.4", got)
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "top_1_cost ↓") || !strings.Contains(buf.String(), "(uniform on every label of each set)") {
		t.Errorf("text:\n%s", buf.String())
	}
	buf.Reset()
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if want := `{"rows":2,"k":1,"target":"uniform","pseudo_recall":0.5,"pseudo_recall_std":0.7071067811865476,`; !strings.HasPrefix(buf.String(), want) {
		t.Errorf("JSON %s\nwant it to start %s", buf.String(), want)
	}

	// One label set for two predictions: the second has no partner.
	Y1, err := corpus.Read(strings.NewReader("[\"dog\"]\n"), "y1.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = metric.ScoreMultiLabel(tr, P, Y1, &metric.MultiLabelOptions{K: 1})
	if want := "p.jsonl:2: row 2 has no partner: p.jsonl has 2 predictions, y1.jsonl has 1 label set (eval pairs prediction r with label set r, line by line)"; err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}
