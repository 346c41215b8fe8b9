//go:build ignore

// Potref is the Go side of the batched and n = 10⁴ measurements (set 3) of
// REFERENCE_POT.md: one timed run per call, printed as tab-separated lines,
// with the inputs written as text for the Python side (the script is in
// REFERENCE_POT.md). It is not part of twl's build:
//
//	go build -o /tmp/potref experiment/treesliced/potref.go
//	/tmp/potref -mode batch -d 2 -dir /tmp/pot    # B = 100 histograms over n = 1000 points
//	/tmp/potref -mode big -d 2 -n 10000 -dir /tmp/pot
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twl-ldl/twl/experiment/treesliced"
	"github.com/twl-ldl/twl/ot/emd"
	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

const T = 16 // trees, seeds 0 … T−1

func main() {
	mode := flag.String("mode", "batch", "batch or big")
	d := flag.Int("d", 2, "dimension")
	n := flag.Int("n", 1000, "points (batch: of the shared support; big: of each cloud)")
	B := flag.Int("B", 100, "batch: number of histograms")
	k := flag.Int("k", 100, "batch: points per histogram")
	dir := flag.String("dir", "/tmp/pot", "where the inputs for Python and twl's values go")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("loadavg\t%s", loadavg())
	switch *mode {
	case "batch":
		batch(*d, *n, *B, *k, *dir)
	case "big":
		big(*d, *n, *dir)
	default:
		log.Fatalf("unknown mode %q", *mode)
	}
	fmt.Printf("loadavg\t%s", loadavg())
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return string(b)
}

func ms(t time.Time) float64 { return float64(time.Since(t).Nanoseconds()) / 1e6 }

// histograms returns B histograms over the n points X (row-major, d
// columns), row-major B×n: histogram r draws an anchor c_r uniformly among
// the points, then k distinct points without replacement with probability
// ∝ exp(−‖x − c_r‖/h), h = median pairwise distance / 4 (Efraimidis–
// Spirakis keys), and gives them Dirichlet(1, …, 1) masses.
func histograms(X []float64, n, d, B, k int, M []float64) []float64 {
	h := median(M) / 4
	rng := rand.New(rand.NewPCG(1, 0x68697374)) // "hist"
	H := make([]float64, B*n)
	key := make([]float64, n)
	idx := make([]int, n)
	for r := range B {
		c := rng.IntN(n)
		for i := range n {
			w := math.Exp(-M[c*n+i] / h)
			key[i] = math.Log(rng.Float64()) / w // larger is better
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int { return -cmpF(key[a], key[b]) })
		row := H[r*n : (r+1)*n]
		var sum float64
		for _, i := range idx[:k] {
			row[i] = rng.ExpFloat64()
			sum += row[i]
		}
		for _, i := range idx[:k] {
			row[i] /= sum
		}
	}
	return H
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// writeRows writes the rows of a row-major matrix of c columns, every
// float64 in shortest round-trip form, after a header line.
func writeRows(path, header string, x []float64, c int) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, header)
	for r := 0; r < len(x)/c; r++ {
		for j, v := range x[r*c : (r+1)*c] {
			if j > 0 {
				w.WriteByte(' ')
			}
			w.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// buildTrees builds T trees of kind "cluster" (Workers: 1) or "quad",
// default options, seeds 0 … T−1, and returns them with the build time.
func buildTrees(kind string, X []float64, n, d int) ([]*tree.Tree, float64) {
	trees := make([]*tree.Tree, T)
	t0 := time.Now()
	for s := range T {
		var err error
		if kind == "cluster" {
			trees[s], err = pointtree.Cluster(X, n, d, nil, &pointtree.ClusterOptions{Seed: uint64(s), Workers: 1})
		} else {
			trees[s], err = pointtree.Quad(X, n, d, nil, &pointtree.QuadOptions{Seed: uint64(s)})
		}
		if err != nil {
			log.Fatal(err)
		}
	}
	return trees, ms(t0)
}

func names(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}

func pearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

func ratios(x, w []float64) (mean, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range x {
		r := x[i] / w[i]
		mean += r
		lo, hi = min(lo, r), max(hi, r)
	}
	return mean / float64(len(x)), lo, hi
}

// batch: B histograms over one support of n points (the cloud A of pair 0
// of the cell (d, n), seed 1), all B(B−1)/2 pairwise distances.
func batch(d, n, B, k int, dir string) {
	p := treesliced.NewPair(1, d, n, 0, 4, treesliced.MassesUniform)
	X := p.A
	sup := &treesliced.Pair{D: d, N: n, A: X, B: X}

	t0 := time.Now()
	M := sup.Cost(nil)
	fmt.Printf("cost_ms\t%.3f\n", ms(t0))
	H := histograms(X, n, d, B, k, M)
	tag := fmt.Sprintf("d%d_n%d_B%d", d, n, B)
	if _, err := os.Stat(filepath.Join(dir, "support_"+tag+".txt")); err != nil {
		writeRows(filepath.Join(dir, "support_"+tag+".txt"), fmt.Sprintf("%d %d", n, d), X, d)
		writeRows(filepath.Join(dir, "hist_"+tag+".txt"), fmt.Sprintf("%d %d", B, n), H, n)
	}
	P := B * (B - 1) / 2
	row := func(r int) []float64 { return H[r*n : (r+1)*n] }

	// Exact W1 on the shared n×n cost, one Solver for all pairs.
	var sv emd.Solver
	w1 := make([]float64, 0, P)
	t0 = time.Now()
	for i := range B {
		for j := i + 1; j < B; j++ {
			c, err := sv.Cost(M, row(i), row(j))
			if err != nil {
				log.Fatal(err)
			}
			w1 = append(w1, c)
		}
	}
	t := ms(t0)
	fmt.Printf("emd_full_ms\t%.1f\tper_pair_ms\t%.4f\n", t, t/float64(P))

	// The same on the k×k cost restricted to the two supports (extraction
	// timed).
	supp := make([][]int, B)
	mass := make([][]float64, B)
	for r := range B {
		for i, v := range row(r) {
			if v > 0 {
				supp[r] = append(supp[r], i)
				mass[r] = append(mass[r], v)
			}
		}
	}
	var sub []float64
	maxDiff := 0.0
	t0 = time.Now()
	q := 0
	for i := range B {
		for j := i + 1; j < B; j++ {
			si, sj := supp[i], supp[j]
			sub = sub[:0]
			for _, a := range si {
				r := M[a*n : (a+1)*n]
				for _, b := range sj {
					sub = append(sub, r[b])
				}
			}
			c, err := sv.Cost(sub, mass[i], mass[j])
			if err != nil {
				log.Fatal(err)
			}
			maxDiff = max(maxDiff, math.Abs(c-w1[q]))
			q++
		}
	}
	t = ms(t0)
	fmt.Printf("emd_restricted_ms\t%.1f\tper_pair_ms\t%.4f\tmax_diff_vs_full\t%.3g\n", t, t/float64(P), maxDiff)

	var b strings.Builder
	for _, v := range w1 {
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "w1twl_"+tag+".txt"), []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("w1_range\t%.4f\t%.4f\n", slices.Min(w1), slices.Max(w1))

	nm := names(n)
	for _, kind := range []string{"cluster", "quad"} {
		trees, tb := buildTrees(kind, X, n, d)
		t0 = time.Now()
		s, err := tsw.New(trees, nm)
		if err != nil {
			log.Fatal(err)
		}
		tn := ms(t0)
		fmt.Printf("%s_build_ms\t%.1f\tnew_ms\t%.2f\tembed_len\t%d\n", kind, tb, tn, s.EmbedLen())

		// Batch.Pairwise: the whole B×B matrix (both triangles).
		dst := make([]float64, B*B)
		for _, workers := range []int{1, 2} {
			bt := tsw.NewBatch(s, workers)
			t0 = time.Now()
			bt.Pairwise(dst, H, H)
			t = ms(t0)
			fmt.Printf("%s_pairwise_w%d_ms\t%.2f\tper_pair_us\t%.3f\n", kind, workers, t, 1000*t/float64(P))
		}
		ts := make([]float64, 0, P)
		for i := range B {
			for j := i + 1; j < B; j++ {
				ts = append(ts, dst[i*B+j])
			}
		}

		// Sliced.Distance pair by pair (dense), after a first call.
		s.Distance(row(0), row(1))
		t0 = time.Now()
		q = 0
		var dd float64
		for i := range B {
			for j := i + 1; j < B; j++ {
				v := s.Distance(row(i), row(j))
				dd = max(dd, math.Abs(v-ts[q])/ts[q])
				q++
			}
		}
		t = ms(t0)
		fmt.Printf("%s_distance_ms\t%.2f\tper_pair_us\t%.3f\tmax_rel_diff_vs_pairwise\t%.2g\n", kind, t, 1000*t/float64(P), dd)

		// SparseEmbed once per histogram, L1 per pair.
		t0 = time.Now()
		emb := make([]tsw.SparseVec, B)
		for r := range B {
			emb[r] = s.SparseEmbed(tsw.SparseVec{}, supp[r], mass[r])
		}
		te := ms(t0)
		t0 = time.Now()
		var acc float64
		for i := range B {
			for j := i + 1; j < B; j++ {
				acc += tsw.L1(emb[i], emb[j])
			}
		}
		t = ms(t0)
		fmt.Printf("%s_sparse_embed_ms\t%.2f\tl1_ms\t%.2f\tl1_per_pair_us\t%.3f\t(sum %.6g)\n", kind, te, t, 1000*t/float64(P), acc)

		mr, lo, hi := ratios(ts, w1)
		fmt.Printf("%s_corr\t%.4f\tratio_mean\t%.3f\tratio_min\t%.3f\tratio_max\t%.3f\n", kind, pearson(ts, w1), mr, lo, hi)
	}
}

// big: pair 0 of the cell (d, n), seed 1, uniform masses: cost, exact W1,
// TSW on 16 trees of each kind over the 2n points.
func big(d, n int, dir string) {
	t0 := time.Now()
	p := treesliced.NewPair(1, d, n, 0, 4, treesliced.MassesUniform)
	fmt.Printf("draw_ms\t%.1f\n", ms(t0))
	path := filepath.Join(dir, fmt.Sprintf("cloud_d%d_n%d.txt", d, n))
	if _, err := os.Stat(path); err != nil {
		writeRows(path, fmt.Sprintf("%d %d", n, d), p.Union(), d)
	}
	t0 = time.Now()
	M := p.Cost(nil)
	fmt.Printf("cost_ms\t%.1f\n", ms(t0))
	t0 = time.Now()
	res, err := new(emd.Solver).Solve(M, p.MA, p.MB)
	if err != nil {
		log.Fatal(err)
	}
	tw1 := ms(t0)
	w1 := res.Cost
	fmt.Printf("emd_ms\t%.1f\tw1\t%.17g\tpivots\t%d\n", tw1, w1, res.Iterations)
	res = emd.Result{}
	M = nil

	u := p.Union()
	a, b := p.Dense()
	nm := names(2 * n)
	for _, kind := range []string{"cluster", "quad"} {
		trees, tb := buildTrees(kind, u, 2*n, d)
		s, err := tsw.New(trees, nm)
		if err != nil {
			log.Fatal(err)
		}
		t0 = time.Now()
		v := s.Distance(a, b)
		first := ms(t0)
		t0 = time.Now()
		for range 100 {
			v = s.Distance(a, b)
		}
		fmt.Printf("%s_build_ms\t%.1f\tfirst_ms\t%.3f\teval_ms\t%.4f\ttsw\t%.6g\tratio\t%.3f\n",
			kind, tb, first, ms(t0)/100, v, v/w1)
	}
}
