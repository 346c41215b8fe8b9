package bench

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

func TestKernels(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want []string
	}{
		{nil, []string{"tw"}},
		{[]string{"cli", "all", "tw"}, []string{"cli", "tw", "plan", "emd", "sinkhorn", "lstm"}},
		{[]string{"emd", "emd"}, []string{"emd"}},
	} {
		got, err := Kernels(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Kernels(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := Kernels([]string{"gpu"}); err == nil {
		t.Error("unknown kernel: no error")
	}
}

// TestRunnerHoldsBack: with every case over MaxBytes nothing reaches Out,
// and every case is counted as skipped: TWCases has 4 cases, and sinkhorn
// is skipped cold and warm.
func TestRunnerHoldsBack(t *testing.T) {
	var out, log bytes.Buffer
	r := &Runner{Out: &out, Log: &log, MaxBytes: 1, Batch: 4, Target: time.Millisecond}
	if err := r.Run([]string{"tw", "sinkhorn"}, []int{100}, []string{"bfs"}); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || r.Ran != 0 || r.Skipped != len(TWCases)+2 {
		t.Errorf("out %q, ran %d, skipped %d", out.String(), r.Ran, r.Skipped)
	}
	if !strings.Contains(log.String(), "bench: skip sinkhorn-cold L=100") {
		t.Errorf("log %q", log.String())
	}
}

// TestRunnerJSON: one timed emd case at 10 labels writes the held-back
// skipped record first, then its own, as JSON Lines.
func TestRunnerJSON(t *testing.T) {
	var out bytes.Buffer
	r := &Runner{Out: &out, Log: new(bytes.Buffer), JSON: true, MaxBytes: int64(EMDNeed(10)) + 1, Target: time.Millisecond}
	if err := r.Run([]string{"emd"}, []int{20, 10}, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || r.Ran != 1 || r.Skipped != 1 {
		t.Fatalf("ran %d, skipped %d, out %q", r.Ran, r.Skipped, out.String())
	}
	var skipped, timed Record
	if json.Unmarshal([]byte(lines[0]), &skipped) != nil || json.Unmarshal([]byte(lines[1]), &timed) != nil {
		t.Fatalf("not JSON: %q", out.String())
	}
	if skipped.Labels != 20 || skipped.Skipped == "" || timed.Labels != 10 || timed.Skipped != "" || !(timed.SecondsPerOp > 0) {
		t.Errorf("records %+v, %+v", skipped, timed)
	}
}

// TestTimeDistanceGrad: the distance it reports is TW between the same
// seeded rows by tw.Distance, a separate kernel, on the same tree.
func TestTimeDistanceGrad(t *testing.T) {
	const L = 300
	sec, v := TimeDistanceGrad(L, time.Millisecond)
	tr := tree.Random(L, rand.NewPCG(1, L)).BreadthFirst()
	rng := rand.New(rand.NewPCG(2, L))
	a, b := RandomRows(rng, 1, L), RandomRows(rng, 1, L)
	if want := tw.Distance(tr, a, b); math.Abs(v-want) > 1e-12*want || !(sec > 0) {
		t.Errorf("got %v in %v s, want %v", v, sec, want)
	}
}
