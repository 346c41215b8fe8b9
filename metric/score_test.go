package metric_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/tree"
)

// figure1 is the tree of Figure 1 of the paper as an edge list.
const figure1 = "animal\tmammal\nanimal\treptile\nmammal\tdog\nmammal\tcat\nreptile\tlizard\nreptile\tsnake\n"

func readers(t *tree.Tree, p, q string) (*labeldist.Reader, *labeldist.Reader) {
	return labeldist.NewReader(strings.NewReader(p), "p.jsonl", t, nil),
		labeldist.NewReader(strings.NewReader(q), "q.jsonl", t, nil)
}

// TestScoreMatchesEvaluate checks the streaming, chunked, parallel Score
// against Evaluate's two-pass mean and standard deviation over the same rows
// held densely: two independent paths through the measures.
func TestScoreMatchesEvaluate(t *testing.T) {
	tr := tree.Random(40, rand.NewPCG(3, 4))
	rng := rand.New(rand.NewPCG(5, 6))
	const rows = 23
	var P, Q []float64
	var ps, qs strings.Builder
	for range rows {
		for _, dst := range []*strings.Builder{&ps, &qs} {
			v := make([]float64, tr.Len())
			var sum float64
			for range 3 {
				i := rng.IntN(tr.Len())
				x := rng.Float64()
				v[i] += x
				sum += x
			}
			for i := range v {
				v[i] /= sum
			}
			b, err := labeldist.AppendFormat(nil, tr, v)
			if err != nil {
				t.Fatal(err)
			}
			dst.Write(append(b, '\n'))
			if dst == &ps {
				P = append(P, v...)
			} else {
				Q = append(Q, v...)
			}
		}
	}
	want := metric.NewEvaluator(tr, nil).Evaluate(P, Q)
	// The masses read back from the shortest decimal form are the same
	// float64s, so the sums agree to rounding.
	A, B := readers(tr, ps.String(), qs.String())
	got, err := metric.Score(context.Background(), tr, A, B, &metric.ScoreOptions{ChunkRows: 5, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got.Rows != rows {
		t.Fatalf("Rows = %d, want %d", got.Rows, rows)
	}
	for _, name := range metric.Names {
		for _, pair := range [][2]float64{{got.Mean[name], want.Mean[name]}, {got.Std[name], want.Std[name]}} {
			if math.Abs(pair[0]-pair[1]) > 1e-12*(1+math.Abs(pair[1])) {
				t.Errorf("%s: Score %v, Evaluate %v", name, pair[0], pair[1])
			}
		}
	}
}

func TestScoreErrors(t *testing.T) {
	tr, err := tree.Read(strings.NewReader(figure1), "f.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	row := `{"cat": 1}` + "\n"
	A, B := readers(tr, row+row+row, row)
	_, err = metric.Score(context.Background(), tr, A, B, &metric.ScoreOptions{Why: "why"})
	var ue *labeldist.UnpairedError
	// Hand-derived: p.jsonl's line 2 is the first without a partner.
	if want := "p.jsonl:2: distribution 2 has no partner: p.jsonl has 3 distributions, q.jsonl has 1 (why)"; !errors.As(err, &ue) || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	A, B = readers(tr, "", "\n")
	if _, err = metric.Score(context.Background(), tr, A, B, nil); err == nil || !strings.Contains(err.Error(), "hold no distributions") {
		t.Errorf("empty files: err = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	A, B = readers(tr, row, row)
	if _, err = metric.Score(ctx, tr, A, B, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

// TestTableJSON checks the JSON keys and numbers against hand values: one
// pair, all on dog against all on cat: wasserstein 2 (dog → mammal → cat),
// kl +Inf, chebyshev 1, clark √2, canberra 2, cosine 0, intersection 0;
// every std NaN (one pair).
func TestTableJSON(t *testing.T) {
	tr, err := tree.Read(strings.NewReader(figure1), "f.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	A, B := readers(tr, `{"dog": 1}`, `{"cat": 1}`)
	tab, err := metric.Score(context.Background(), tr, A, B, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tab.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	want := `{"rows":1,"wasserstein":2,"wasserstein_std":"NaN","kl":"+Inf","kl_std":"NaN","chebyshev":1,"chebyshev_std":"NaN",` +
		`"clark":1.4142135623730951,"clark_std":"NaN","canberra":2,"canberra_std":"NaN","cosine":0,"cosine_std":"NaN","intersection":0,"intersection_std":"NaN"}` + "\n"
	if buf.String() != want {
		t.Errorf("got  %s\nwant %s", buf.String(), want)
	}
	if tab.InfKL != 1 || tab.FirstInfKL != "p.jsonl:1" {
		t.Errorf("InfKL %d at %q, want 1 at p.jsonl:1", tab.InfKL, tab.FirstInfKL)
	}
}

// Two predictions of the label cat on the tree of Figure 1: all on dog
// (TW 2: dog → mammal → cat), and .9 cat, .1 snake (TW .1·4 = .4). The mean
// TW is 1.2 and its sample standard deviation √(2·.8²) = 1.13137; clark
// is √2 and √((.1/1.9)² + 1) = 1.001384 (mean 1.2078, std .291915); cosine
// 0 and .9/√.82 = .993884 (mean .496942, std .702782).
func ExampleScore() {
	t, err := tree.Read(strings.NewReader(figure1), "figure1.tree", nil)
	if err != nil {
		panic(err)
	}
	pred := labeldist.NewReader(strings.NewReader(`{"dog": 1}
{"cat": 0.9, "snake": 0.1}
`), "pred.jsonl", t, nil)
	target := labeldist.NewReader(strings.NewReader(`{"cat": 1}
{"cat": 1}
`), "target.jsonl", t, nil)
	tab, err := metric.Score(context.Background(), t, pred, target, nil)
	if err != nil {
		panic(err)
	}
	tab.WriteText(os.Stdout)
	// Output:
	// measure                  mean          std
	// wasserstein ↓             1.2      1.13137
	// kl ↓                     +Inf          NaN
	// chebyshev ↓              0.55     0.636396
	// clark ↓                1.2078     0.291915
	// canberra ↓            1.52632     0.669891
	// cosine ↑             0.496942     0.702782
	// intersection ↑           0.45     0.636396
	//
	// 2 pairs; mean and sample standard deviation over the pairs.
	// kl is +Inf for 1 pair: the prediction has no mass on a label of the target,
	// first at pred.jsonl:1.
	// --pyldl clips masses to [2.2e-16, 1], as PyLDL does, which keeps kl finite.
}
