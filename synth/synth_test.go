package synth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/tree"
)

// direct is F_vuσ as printed: the exponentials themselves, normalized.
func direct(dv, du []float64, sigma float64, sign Sign) []float64 {
	f := sign.factor()
	p := make([]float64, len(dv))
	var c float64
	for s := range dv {
		p[s] = math.Exp(f*dv[s]/(sigma*sigma)) + math.Exp(f*du[s]/(sigma*sigma))
		c += p[s]
	}
	for s := range p {
		p[s] /= c
	}
	return p
}

// chainDist returns the distances from node c on the chain 0 — 1 — 2.
func chainDist(c int) []float64 {
	d := make([]float64, 3)
	for s := range d {
		d[s] = math.Abs(float64(s - c))
	}
	return d
}

func TestFChain(t *testing.T) {
	// The chain 0 — 1 — 2 with unit weights, v = 0, u = 1. Expected values
	// by hand, evaluated with bc -l (scale 20): with a = e^(±1/σ²),
	// b = e^(±2/σ²), the numerators are 1+a, a+1, b+a and C = 2 + 3a + b.
	for _, tc := range []struct {
		name   string
		sigma  float64
		sign   Sign
		p0, p2 float64 // p1 = p0
	}{
		{"decay σ=1", 1, Decay, .42231879825151819660, .15536240349696360679},
		{"grow σ=1", 1, Grow, .21194155761708544507, .57611688476582910985},
		{"decay σ=2", 2, Decay, .35986746732333266040, .28026506535333467918},
	} {
		p := F(nil, chainDist(0), chainDist(1), tc.sigma, tc.sign)
		want := []float64{tc.p0, tc.p0, tc.p2}
		for s := range p {
			if math.Abs(p[s]-want[s]) > 1e-15 {
				t.Errorf("%s: p = %v, want %v", tc.name, p, want)
				break
			}
		}
	}
	// v = 0, u = 2: d(v,s) + d(u,s) = 2 on the chain, so both signs give
	// the same distribution: (1+e⁻²)/C, 2e⁻¹/C, (1+e⁻²)/C with
	// C = 2 + 2e⁻² + 2e⁻¹ (bc -l).
	for _, sign := range []Sign{Decay, Grow} {
		p := F(nil, chainDist(0), chainDist(2), 1, sign)
		want := []float64{.37763576447260117376, .24472847105479765247, .37763576447260117376}
		for s := range p {
			if math.Abs(p[s]-want[s]) > 1e-15 {
				t.Errorf("%v, v=0, u=2: p = %v, want %v", sign, p, want)
				break
			}
		}
	}
}

func TestFMatchesDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := tree.Random(60, rand.NewPCG(3, 4))
	for trial := range 200 {
		v, u := rng.IntN(60), rng.IntN(60)
		dv, du := make([]float64, 60), make([]float64, 60)
		for s := range dv {
			dv[s], du[s] = tr.Distance(v, s), tr.Distance(u, s)
		}
		sigma := 10 * rng.Float64()
		for _, sign := range []Sign{Decay, Grow} {
			want := direct(dv, du, sigma, sign)
			finite := true
			for _, w := range want {
				finite = finite && !math.IsNaN(w) && !math.IsInf(w, 0)
			}
			if !finite {
				continue // the direct formula overflowed: nothing to compare
			}
			got := F(nil, dv, du, sigma, sign)
			for s := range got {
				if math.Abs(got[s]-want[s]) > 1e-13*math.Max(1, want[s]) {
					t.Fatalf("trial %d, %v, σ = %g: p[%d] = %g, direct %g", trial, sign, sigma, s, got[s], want[s])
				}
			}
		}
	}
}

func TestFSmallSigma(t *testing.T) {
	tr := tree.Random(40, rand.NewPCG(5, 6))
	dv, du := make([]float64, 40), make([]float64, 40)
	v, u := 3, 17
	far := 0.0
	for s := range dv {
		dv[s], du[s] = tr.Distance(v, s), tr.Distance(u, s)
		far = math.Max(far, math.Max(dv[s], du[s]))
	}
	for _, sigma := range []float64{0, 5e-324, 1e-200, 1e-160, 1e-20, 0.01, 0.1} {
		for _, sign := range []Sign{Decay, Grow} {
			p := F(nil, dv, du, sigma, sign)
			var sum float64
			for s, ps := range p {
				if math.IsNaN(ps) || ps < 0 || ps > 1 {
					t.Fatalf("σ = %g, %v: p[%d] = %v", sigma, sign, s, ps)
				}
				sum += ps
			}
			if math.Abs(sum-1) > 1e-14 {
				t.Errorf("σ = %g, %v: sum %v", sigma, sign, sum)
			}
			if sigma > 1e-20 {
				continue
			}
			// The limit σ → 0: half on v, half on u (Decay); for Grow, on
			// the nodes farthest from v or u, one unit per centre at the
			// largest distance.
			if sign == Decay && (math.Abs(p[v]-0.5) > 1e-15 || math.Abs(p[u]-0.5) > 1e-15) {
				t.Errorf("σ = %g, decay: p[v] = %v, p[u] = %v, want 1/2 each", sigma, p[v], p[u])
			}
			if sign == Grow {
				var units float64
				for s := range dv {
					if dv[s] == far {
						units++
					}
					if du[s] == far {
						units++
					}
				}
				for s := range p {
					var want float64
					if dv[s] == far {
						want++
					}
					if du[s] == far {
						want++
					}
					if math.Abs(p[s]-want/units) > 1e-15 {
						t.Errorf("σ = %g, grow: p[%d] = %v, want %v", sigma, s, p[s], want/units)
					}
				}
			}
		}
	}
	// v = u: all the mass on v.
	p := F(nil, dv, dv, 0, Decay)
	if p[v] != 1 {
		t.Errorf("v = u, σ = 0: p[v] = %v, want 1", p[v])
	}
}

func TestFPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"empty":     func() { F(nil, nil, nil, 1, Decay) },
		"lengths":   func() { F(nil, []float64{0, 1}, []float64{0}, 1, Decay) },
		"dst":       func() { F(make([]float64, 1), []float64{0, 1}, []float64{1, 0}, 1, Decay) },
		"nan sigma": func() { F(nil, []float64{0, 1}, []float64{1, 0}, math.NaN(), Decay) },
		"neg dist":  func() { F(nil, []float64{0, -1}, []float64{1, 0}, 1, Decay) },
		"inf dist":  func() { F(nil, []float64{0, math.Inf(1)}, []float64{1, 0}, 1, Decay) },
		"neg sigma": func() { F(nil, []float64{0, 1}, []float64{1, 0}, -1, Decay) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestGenerate(t *testing.T) {
	for _, cfg := range []Config{
		{Nodes: 30, Features: 7, Hidden: 5},
		{Nodes: 30, Features: 7, Hidden: 5, Input: Hidden, Sign: Grow, X: Uniform, W1: Symmetric},
		{Nodes: 30, Features: 7, Hidden: 5, Input: Output, Scale: 0.001},
	} {
		d, err := Generate(cfg, 42, 50, 20)
		if err != nil {
			t.Fatal(err)
		}
		c := d.Config
		if c.Scale == 0 || d.Train.Len() != 50 || d.Test.Len() != 20 {
			t.Fatalf("%+v: config %+v, %d train, %d test", cfg, c, d.Train.Len(), d.Test.Len())
		}
		if _, cols := d.Train.X.Dims(); cols != c.InputDim() {
			t.Errorf("%+v: %d features, want %d", cfg, cols, c.InputDim())
		}
		g := d.Generator
		for k, ds := range []*dataset.Dataset{d.Train, d.Test} {
			info := [][]Info{d.TrainInfo, d.TestInfo}[k]
			for i := range ds.Len() {
				y := ds.Y.RawRowView(i)
				var sum float64
				for _, p := range y {
					if math.IsNaN(p) || p < 0 {
						t.Fatalf("NaN or negative mass %v", p)
					}
					sum += p
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Errorf("%+v: row %d sums to %v", cfg, i, sum)
				}
				// The target is F with the recorded draw, on tree distances.
				in := info[i]
				dv, du := make([]float64, c.Nodes), make([]float64, c.Nodes)
				for s := range dv {
					dv[s], du[s] = g.Tree.Distance(in.V, s), g.Tree.Distance(in.U, s)
				}
				want := F(nil, dv, du, in.Sigma, c.Sign)
				for s := range want {
					if want[s] != y[s] {
						t.Fatalf("%+v: row %d differs from F on tree distances", cfg, i)
					}
				}
				if !(in.Sigma >= 0 && in.Sigma <= c.Scale) {
					t.Errorf("σ = %v out of [0, %v]", in.Sigma, c.Scale)
				}
			}
		}
		if c.Input == Output {
			// The leak: arg-max of the features is v.
			x := d.Train.X.RawRowView(0)
			j := 0
			for k := 1; k < c.Nodes; k++ {
				if x[k] > x[j] {
					j = k
				}
			}
			if g.Tree.Name(d.TrainInfo[0].V) != strconv.Itoa(j) {
				t.Errorf("output input: arg-max feature %d, v named %s", j, g.Tree.Name(d.TrainInfo[0].V))
			}
		}
	}
}

func TestDeterminism(t *testing.T) {
	cfg := Config{Nodes: 50, Features: 10, Hidden: 8}
	a, _ := Generate(cfg, 7, 30, 10)
	b, _ := Generate(cfg, 7, 30, 10)
	c, _ := Generate(cfg, 8, 30, 10)
	more, _ := Generate(cfg, 7, 60, 10)
	eq := func(x, y []float64) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return true
	}
	raw := func(d *dataset.Dataset) ([]float64, []float64) {
		return d.X.RawMatrix().Data, d.Y.RawMatrix().Data
	}
	ax, ay := raw(a.Train)
	bx, by := raw(b.Train)
	cx, _ := raw(c.Train)
	if !eq(ax, bx) || !eq(ay, by) || a.Tree.Format() != b.Tree.Format() {
		t.Error("same seed, different data")
	}
	if eq(ax, cx) || a.Tree.Format() == c.Tree.Format() {
		t.Error("different seeds, same data")
	}
	// The test set does not depend on the number of training samples.
	tx, ty := raw(a.Test)
	mx, my := raw(more.Test)
	if !eq(tx, mx) || !eq(ty, my) {
		t.Error("the test set changed with the training-set size")
	}
	// The first 30 training samples are those of the longer run.
	lx, _ := raw(more.Train)
	if !eq(ax, lx[:len(ax)]) {
		t.Error("the training samples are not a prefix of a longer run's")
	}
}

func TestSigns(t *testing.T) {
	// Decay puts the most mass near the centres, Grow far from them.
	for _, sign := range []Sign{Decay, Grow} {
		d, err := Generate(Config{Nodes: 200, Features: 20, Hidden: 20, Sign: sign}, 3, 100, 0)
		if err != nil {
			t.Fatal(err)
		}
		var near, far float64 // mean distance of the mass to the nearer centre
		for i, in := range d.TrainInfo {
			y := d.Train.Y.RawRowView(i)
			for s, p := range y {
				dist := math.Min(d.Tree.Distance(in.V, s), d.Tree.Distance(in.U, s))
				near += p * dist
			}
			// Uniform mass, for comparison.
			for s := range y {
				far += math.Min(d.Tree.Distance(in.V, s), d.Tree.Distance(in.U, s)) / float64(len(y))
			}
		}
		if sign == Decay && !(near < far) || sign == Grow && !(near > far) {
			t.Errorf("%v: mean distance of the mass to the centres %g, of uniform mass %g", sign, near/100, far/100)
		}
	}
}

func TestWriteDir(t *testing.T) {
	cfg := Config{Nodes: 25, Features: 4, Hidden: 3, Sign: Grow, X: Symmetric}
	d, err := Generate(cfg, 9, 10, 5)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	tr, err := tree.ReadFile(filepath.Join(dir, TreeFile), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Len() {
		if tr.Name(i) != d.Tree.Name(i) {
			t.Fatalf("node %d reads back as %q, was %q", i, tr.Name(i), d.Tree.Name(i))
		}
	}
	for name, ds := range map[string]*dataset.Dataset{TrainFile: d.Train, TestFile: d.Test} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		back, rep, err := dataset.ReadJSONL(f, name, tr, &dataset.Options{Strict: true})
		f.Close()
		if err != nil || rep.Rescaled != 0 {
			t.Fatal(err, rep)
		}
		if !bytes.Equal(f64bytes(back.Y.RawMatrix().Data), f64bytes(ds.Y.RawMatrix().Data)) ||
			!bytes.Equal(f64bytes(back.X.RawMatrix().Data), f64bytes(ds.X.RawMatrix().Data)) {
			t.Errorf("%s does not read back bit for bit", name)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	var m Meta
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m.Format != MetaFormat || m.Seed != 9 || m.Config != cfg.Defaults() || m.Train != 10 || m.Test != 5 || m.TestSummary == nil {
		t.Errorf("meta %+v", m)
	}
	// The same data again from the recorded configuration and seed.
	again, _ := Generate(m.Config, m.Seed, m.Train, m.Test)
	if !bytes.Equal(f64bytes(again.Test.Y.RawMatrix().Data), f64bytes(d.Test.Y.RawMatrix().Data)) {
		t.Error("the recorded configuration does not regenerate the data")
	}
}

// TestWriteDirAllOrNothing checks that WriteDir leaves no temporary folder
// or file: into a new folder, into an existing one (whose other files stay),
// and on an error (a parent that is a regular file, a destination that is a
// directory), which leaves the existing folder as it was.
func TestWriteDirAllOrNothing(t *testing.T) {
	d, err := Generate(Config{Nodes: 10, Features: 2, Hidden: 2}, 1, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	names := func(dir string) []string {
		entries, _ := os.ReadDir(dir)
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	dir := filepath.Join(root, "new")
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if got := names(root); len(got) != 1 || got[0] != "new" {
		t.Errorf("beside the new folder: %q, want only new", got)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("new folder: %v, %v; want mode 0755", fi, err)
	}
	// Again into the existing folder, which holds another file too.
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if got := names(dir); strings.Join(got, " ") != "notes.txt synth.json train.jsonl tree.txt" {
		t.Errorf("existing folder holds %q", got)
	}
	// A destination that is a directory: an error, nothing changed.
	before, _ := os.ReadFile(filepath.Join(dir, TrainFile))
	if err := os.Mkdir(filepath.Join(dir, TestFile), 0o755); err != nil {
		t.Fatal(err)
	}
	d2, _ := Generate(Config{Nodes: 10, Features: 2, Hidden: 2}, 2, 3, 1)
	if err := d2.WriteDir(dir); err == nil {
		t.Error("writing test.jsonl over a directory: no error")
	}
	if after, _ := os.ReadFile(filepath.Join(dir, TrainFile)); !bytes.Equal(before, after) {
		t.Error("a failed WriteDir changed train.jsonl")
	}
	if got := names(dir); len(got) != 5 {
		t.Errorf("after a failed write the folder holds %q", got)
	}
	// A parent that is a regular file.
	if err := d.WriteDir(filepath.Join(dir, "notes.txt", "x")); err == nil {
		t.Error("a folder under a regular file: no error")
	}
	if got := names(root); len(got) != 1 {
		t.Errorf("after failed writes: %q beside the folder", got)
	}
}

// TestWriteDirSecondSignal: the temporary folder of a new dir is
// registered with atomicfile while it is written, so that RemoveTemps (a
// second signal) removes it, and forgotten once it is renamed into place.
func TestWriteDirSecondSignal(t *testing.T) {
	d, err := Generate(Config{Nodes: 10, Features: 2, Hidden: 2}, 1, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { testHookTempDir = nil }()
	root := t.TempDir()
	var tmp string
	testHookTempDir = func(dir string) {
		tmp = dir
		atomicfile.RemoveTemps() // as a second signal does
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("RemoveTemps left the temporary folder %s: %v", dir, err)
		}
	}
	if err := d.WriteDir(filepath.Join(root, "new")); err == nil {
		t.Error("writing into a removed temporary folder: no error")
	}
	if entries, _ := os.ReadDir(root); tmp == "" || len(entries) != 0 {
		t.Errorf("temporary folder %q; beside it %v, want nothing", tmp, entries)
	}

	testHookTempDir = func(dir string) { tmp = dir }
	if err := d.WriteDir(filepath.Join(root, "new")); err != nil {
		t.Fatal(err)
	}
	// Forgotten: a folder of that name made since is not RemoveTemps's.
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	atomicfile.RemoveTemps()
	if _, err := os.Stat(tmp); err != nil {
		t.Errorf("RemoveTemps removed %s after WriteDir renamed it into place: %v", tmp, err)
	}
}

// TestGenerateContext checks that a done context stops the sampling with
// its error, and that an open one gives the data of Generate.
func TestGenerateContext(t *testing.T) {
	cfg := Config{Nodes: 10, Features: 2, Hidden: 2}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := GenerateContext(ctx, cfg, 1, 5, 5); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
	a, err := GenerateContext(context.Background(), cfg, 1, 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(cfg, 1, 5, 5)
	if !bytes.Equal(f64bytes(a.Test.Y.RawMatrix().Data), f64bytes(b.Test.Y.RawMatrix().Data)) {
		t.Error("GenerateContext and Generate differ")
	}
}

func f64bytes(x []float64) []byte {
	b := make([]byte, 0, 8*len(x))
	for _, v := range x {
		u := math.Float64bits(v)
		for k := range 8 {
			b = append(b, byte(u>>(8*k)))
		}
	}
	return b
}

func TestConfigErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Nodes: 1}, {Nodes: -5}, {Features: -1}, {Hidden: -2}, {Scale: -1}, {Scale: math.Inf(1)},
		{X: 7}, {Input: 9}, {Sign: -1}, {Nodes: 1 << 20, Hidden: 1 << 10},
	} {
		if _, err := New(cfg, 1); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: err %v, want ErrConfig", cfg, err)
		}
	}
	if _, err := Generate(Config{Nodes: 5}, 1, 0, 1); !errors.Is(err, ErrConfig) {
		t.Errorf("0 training samples: err %v", err)
	}
}

func TestEnumText(t *testing.T) {
	for _, name := range DistNames {
		var d Dist
		if err := d.UnmarshalText([]byte(name)); err != nil || d.String() != name {
			t.Errorf("%s: %v, %v", name, d, err)
		}
	}
	var s Sign
	if err := s.UnmarshalText([]byte("up")); !errors.Is(err, ErrConfig) {
		t.Errorf("unknown sign: %v", err)
	}
	if err := s.UnmarshalText([]byte("grow")); err != nil || s != Grow {
		t.Errorf("grow: %v %v", s, err)
	}
	var in Input
	if err := in.UnmarshalText([]byte("output")); err != nil || in != Output {
		t.Errorf("output: %v %v", in, err)
	}
	if Choices([]string{"a", "b", "c"}) != "a, b or c" {
		t.Error(Choices([]string{"a", "b", "c"}))
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]Info{{1, 2, 0.1}, {1, 3, 5}, {1, 2, 9}, {4, 2, 1}})
	want := Summary{Samples: 4, DistinctV: 2, DistinctU: 2, DistinctPairs: 3, SigmaMin: 0.1, SigmaMedian: 3, SigmaMax: 9, SigmaBelowHalf: 0.25}
	if s != want {
		t.Errorf("%+v, want %+v", s, want)
	}
}

func BenchmarkSample(b *testing.B) {
	for _, l := range []int{100, 1000} {
		g, _ := New(Config{Nodes: l}, 1)
		b.Run(strconv.Itoa(l)+"nodes", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.Sample(100, rand.NewPCG(1, 1))
			}
		})
	}
}
