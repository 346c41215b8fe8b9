package docknn

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/twl-ldl/twl/experiment/report"
)

// duration formats seconds for the report: three significant digits below
// a minute, then whole seconds.
func duration(s float64) string {
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return fmt.Sprint(s)
	case s < 1e-3:
		return fmt.Sprintf("%.3g µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.3g ms", s*1e3)
	case s < 60:
		return fmt.Sprintf("%.3g s", s)
	}
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}

// times formats a speed-up.
func times(x float64) string {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return fmt.Sprint(x)
	case x >= 10:
		return fmt.Sprintf("%.0f×", x)
	}
	return fmt.Sprintf("%.2g×", x)
}

// Claim is the verdict on the claim for one TSW.
type Claim struct {
	Method string
	// Points is the TSW's best error minus WMD's, in points (percent).
	Points float64
	// Speedup and EmbedSpeedup are WMD's time per pair over the TSW's, by
	// tsw.Sliced.SparseDistance and by the ℓ₁ distance of the embeddings.
	Speedup, EmbedSpeedup float64
	// Error: Points ≤ ClaimPoints. Time and EmbedTime: the speed-ups are
	// at least ClaimSpeedup.
	Error, Time, EmbedTime bool
}

// Holds reports whether the claim holds, by either way of computing TSW.
func (c Claim) Holds() bool { return c.Error && (c.Time || c.EmbedTime) }

// Claims returns the verdict on the claim for every TSW of r.
func (r *Result) Claims() []Claim {
	if len(r.Methods) == 0 {
		return nil
	}
	exact := r.Methods[0]
	var out []Claim
	for _, m := range r.Methods[1:] {
		c := Claim{Method: m.Name, Points: 100 * float64(m.BestError-exact.BestError),
			Speedup: float64(m.Speedup), EmbedSpeedup: float64(m.EmbedSpeedup)}
		c.Error, c.Time, c.EmbedTime = c.Points <= ClaimPoints, c.Speedup >= ClaimSpeedup, c.EmbedSpeedup >= ClaimSpeedup
		out = append(out, c)
	}
	return out
}

// Markdown returns the report: the setup, the errors per k, the times, and
// the verdict on the claim.
func (r *Result) Markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	c := r.Config
	nTest := r.Test.Documents

	p("# Document distances: k-nearest neighbours with the tree-sliced Wasserstein distance against the exact word mover's distance\n\n")
	p("Each document is a normalized bag of its %d most frequent words (lower-case, %d stop words and words without a vector dropped", c.Words, c.StopWords)
	if c.KeepHeaders {
		p(", headers kept); ")
	} else {
		p(", header blocks of posts dropped but for the subject); ")
	}
	p("WMD is the exact 1-Wasserstein distance with the Euclidean cost between the word vectors (network simplex, package ot/emd); ")
	p("TSW is the mean of the tree-Wasserstein distances on T random trees built over the words' vectors (package pointtree), computed pair by pair by tsw.SparseDistance and, with the same values, as the ℓ₁ distance between the documents' tree embeddings. ")
	p("Every test document is classified by the majority class of its k nearest training documents (ties between classes to the nearest).\n\n")

	p("**Data.** %d training documents drawn from %s (%d documents) and %d test documents from %s (%d), seed %d; ",
		r.Train.Documents, c.Files.Train, r.Train.Available, nTest, c.Files.Test, r.Test.Available, c.Seed)
	if sk := r.Train.Skipped + r.Test.Skipped; sk > 0 {
		p("%s drawn with no word left %s passed over; ", report.Plural(sk, "document", "documents"), map[bool]string{true: "was", false: "were"}[sk == 1])
	}
	p("%s. Word vectors %s (dimension %d); the bags hold %d distinct words, the points of the trees. ", report.Plural(len(r.Classes), "class", "classes"), c.Files.Embeddings, r.Dim, r.Points)
	tok := r.Train
	tok.add(r.Test)
	docs := r.Train.Documents + r.Test.Documents
	p("Of %d tokens, %.0f%% were stop words, %.0f%% had no vector, %.0f%% fell past the %d most frequent words of their document (%d of the %s had more), and %.0f%% are in the bags; ",
		tok.Tokens, pct(tok.Stop, tok.Tokens), pct(tok.NoVector, tok.Tokens), pct(tok.Truncated, tok.Tokens), c.Words, tok.Truncs, report.Plural(docs, "document", "documents"), pct(tok.Kept, tok.Tokens))
	p("a bag has %.1f words on average (%d to %d).\n\n", float64(tok.Distinct)/float64(max(docs, 1)), min(r.Train.MinWords, r.Test.MinWords), max(r.Train.MaxWords, r.Test.MaxWords))
	p("**Trees.** Builders %s; T = %s, the first T of %d trees per builder, each seeded. ", strings.Join(c.Builders, ", "), ints(c.Trees), maxInt(c.Trees))
	p("Clustering trees: K = %d, depth %d, %d Lloyd steps; quadtrees: depth %d.\n\n", c.ClusterK, c.ClusterDepth, c.ClusterIters, c.QuadDepth)
	p("**Machine.** %d CPUs (GOMAXPROCS %d, %s/%s, %s); %d test documents at once. Wall-clock time of the run %s. ",
		r.Machine.CPUs, r.Machine.GOMAXPROCS, r.Machine.GOOS, r.Machine.GOARCH, r.Machine.Go, c.Workers, duration(float64(r.Seconds)))
	p("Times are as noisy as the machine is shared.\n\n")

	p("## k-nearest-neighbour error\n\n")
	p("Error on the %d test documents, in percent, for each k; **bold**: the least of each column. ", nTest)
	p("\"Best\" is the least error over k, chosen on the test documents for every method alike (optimistic, but the same for all); ")
	p("± is its binomial standard error √(p(1−p)/n).\n\n")
	heads := []string{"Method"}
	for _, k := range c.Ks {
		heads = append(heads, fmt.Sprintf("k=%d", k))
	}
	p("%s", report.TableHead(append(heads, "best (k)"), "l"+strings.Repeat("r", len(c.Ks)+1)))
	least := make([]report.Float, len(c.Ks))
	for q := range c.Ks {
		least[q] = report.Float(math.Inf(1))
		for _, m := range r.Methods {
			least[q] = min(least[q], m.Errors[q])
		}
	}
	for _, m := range r.Methods {
		p("| %s |", m.Name)
		for q, e := range m.Errors {
			v := fmt.Sprintf("%.1f", 100*float64(e))
			if e == least[q] {
				v = "**" + v + "**"
			}
			p(" %s |", v)
		}
		p(" %.1f ± %.1f (%d) |\n", 100*float64(m.BestError), 100*StdErr(float64(m.BestError), nTest), m.BestK)
	}

	p("\n## Time\n\n")
	pairs := r.Train.Documents * nTest
	clock := "CPU time of the process (all threads)"
	if !r.CPUClock {
		clock = "wall-clock time (no CPU clock on this system)"
	}
	p("%d pairs per method, computed on %d goroutines. Times are %s, except *wall*, the wall-clock time of the distance matrix. ", pairs, c.Workers, clock)
	p("TSW is computed two ways, with the same values: by tsw.Sliced.SparseDistance on each pair, and as the ℓ₁ distance between the documents' sparse tree embeddings, computed once per document (*embed*: all %d documents). ", r.Train.Documents+nTest)
	p("*Speed-up*: WMD's time per pair over the method's; *whole*: WMD's time over the method's trees, embeddings and distances together.\n\n")
	p("| Method | trees | wall | per pair | speed-up | embed | per pair, embedded | speed-up, embedded | whole |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for i, m := range r.Methods {
		if i == 0 {
			p("| %s | – | %s | %s | 1× | – | – | – | 1× |\n", m.Name, duration(float64(m.Seconds)), duration(float64(m.PairSeconds)))
			continue
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", m.Name, duration(float64(m.BuildSeconds)), duration(float64(m.Seconds)),
			duration(float64(m.PairSeconds)), times(float64(m.Speedup)), duration(float64(m.EmbedSeconds)),
			duration(float64(m.EmbedPairSeconds)), times(float64(m.EmbedSpeedup)), times(float64(m.TotalSpeedup)))
	}
	if len(r.Methods) > 0 {
		e := r.Methods[0]
		p("\nOf WMD's time per pair, %.0f%% went into the cost matrices (up to %d×%d distances in dimension %d) and the rest into the network simplex. ",
			100*float64(e.CostShare), c.Words, c.Words, r.Dim)
		p("WMD's matrix had %.0f%% of the %d cores it ran on (CPU over wall-clock time): the rest went to other work on the machine. ", 100*float64(r.Utilization), c.Workers)
		var diff report.Float
		for _, m := range r.Methods[1:] {
			diff = max(diff, m.EmbedDiff)
		}
		if len(r.Methods) > 1 {
			p("The embedded distances differ from SparseDistance's by at most %.1e of the largest distance. ", float64(diff))
		}
		full := float64(r.Train.Available) * float64(r.Test.Available)
		p("At these times per pair, all %d test documents against all %d training documents (%.3g pairs) would take %s with WMD",
			r.Test.Available, r.Train.Available, full, duration(full*float64(e.PairSeconds)))
		if len(r.Methods) > 1 {
			f := r.Methods[1]
			for _, m := range r.Methods[1:] {
				if m.Trees > f.Trees || m.Trees == f.Trees && m.EmbedPairSeconds > f.EmbedPairSeconds {
					f = m
				}
			}
			p(", and %s with %s embedded (%s by SparseDistance), trees and embeddings aside", duration(full*float64(f.EmbedPairSeconds)), f.Name,
				duration(full*float64(f.PairSeconds)))
		}
		p(".\n\n")
	}

	p("## Agreement with WMD\n\n")
	p("*1-NN as WMD*: test documents whose nearest training document is WMD's; *corr.*: Pearson correlation with WMD over all pairs; *ratio*: mean of the distance over WMD's (the trees' metrics bound the Euclidean one from above).\n\n")
	p("| Method | 1-NN as WMD | corr. | ratio |\n|---|---:|---:|---:|\n")
	for _, m := range r.Methods[min(1, len(r.Methods)):] {
		p("| %s | %.0f%% | %.3f | %.2f |\n", m.Name, 100*float64(m.Agreement), float64(m.Correlation), float64(m.Ratio))
	}

	p("\n## The claim\n\n")
	p("The claim: TSW comes \"within a few points of the exact error at 100× or more less time\". Read as: best error at most %.0f points above WMD's, and at least %.0f× less time per pair, by either way of computing it.\n\n", ClaimPoints, ClaimSpeedup)
	claims := r.Claims()
	p("| Method | best error − WMD's | speed-up | speed-up, embedded | claim |\n|---|---:|---:|---:|---|\n")
	var held []string
	for _, cl := range claims {
		var v string
		switch {
		case cl.Holds():
			v, held = "holds", append(held, cl.Method)
		case cl.Error:
			v = "error yes, time no"
		case cl.Time || cl.EmbedTime:
			v = "time yes, error no"
		default:
			v = "no"
		}
		p("| %s | %+.1f | %s | %s | %s |\n", cl.Method, cl.Points, times(cl.Speedup), times(cl.EmbedSpeedup), v)
	}
	p("\n")
	switch {
	case len(claims) == 0:
		p("No TSW was run.\n")
	case len(held) == 0:
		p("**The claim does not hold for any TSW configured here.** ")
	default:
		p("**The claim holds for %s** (of %d TSW configurations). ", strings.Join(held, ", "), len(claims))
	}
	if len(claims) > 0 {
		p("With %d test documents an error near %.0f%% has a standard error of about %.1f points, so differences of a point or two are within the noise of the draw.\n",
			nTest, 100*float64(r.Methods[0].BestError), 100*StdErr(float64(r.Methods[0].BestError), nTest))
	}
	p("\n## Plot\n\n- `%s.png` / `.svg`: the error against k, a line per method (WMD dashed).\n", ErrorsPlot)
	return b.String()
}

// add adds the token counts of u to t.
func (t *TokenCounts) add(u TokenCounts) {
	t.Tokens += u.Tokens
	t.Stop += u.Stop
	t.NoVector += u.NoVector
	t.Truncated += u.Truncated
	t.Kept += u.Kept
	t.Distinct += u.Distinct
	t.Truncs += u.Truncs
}

func pct(a, b int64) float64 { return pct64(float64(a), float64(b)) }

func pct64(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * a / b
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

func maxInt(v []int) int {
	m := 0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
