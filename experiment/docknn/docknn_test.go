package docknn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
	"github.com/twl-ldl/twl/vocab"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/internal/testutil"
)

// newPoints returns points named w0, w1, … with the given vectors.
func newPoints(vecs ...[]float64) *points {
	p := &points{d: len(vecs[0])}
	for i, v := range vecs {
		p.names = append(p.names, fmt.Sprintf("w%d", i))
		p.x = append(p.x, v...)
	}
	return p
}

// TestWMD checks the exact distance on bags whose optimal transport is
// known by hand.
func TestWMD(t *testing.T) {
	p := newPoints([]float64{0, 0}, []float64{3, 4}, []float64{4, 0}, []float64{0, 3}, []float64{4, 3})
	for _, tc := range []struct {
		name string
		a, b Bag
		want float64
	}{
		// One word each: the Euclidean distance of the vectors, |(3, 4)| = 5.
		{"one word", Bag{[]int{0}, []float64{1}}, Bag{[]int{1}, []float64{1}}, 5},
		{"same word", Bag{[]int{1}, []float64{1}}, Bag{[]int{1}, []float64{1}}, 0},
		// a = ¾ at (0,0) + ¼ at (4,0), b = ½ at (0,3) + ½ at (4,3). Every
		// plan is [[q, ¾−q], [½−q, q−¼]], q ∈ [¼, ½], of cost
		// 3q + 5(¾−q) + 5(½−q) + 3(q−¼) = 5.5 − 4q: least at q = ½, 3.5.
		{"two words", Bag{[]int{0, 2}, []float64{0.75, 0.25}}, Bag{[]int{3, 4}, []float64{0.5, 0.5}}, 3.5},
		// A word shared by both bags moves nothing: ½ of (0,0) goes to
		// (3,4), 5 × ½.
		{"shared word", Bag{[]int{0, 1}, []float64{0.5, 0.5}}, Bag{[]int{1}, []float64{1}}, 2.5},
	} {
		w := &wmd{p: p}
		got, err := w.distance(tc.a, tc.b)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: WMD = %v (%v), want %v", tc.name, got, err, tc.want)
		}
		back, _ := w.distance(tc.b, tc.a)
		if math.Abs(back-got) > 1e-12 {
			t.Errorf("%s: WMD(b, a) = %v ≠ WMD(a, b) = %v", tc.name, back, got)
		}
	}
}

// TestKNNErrors checks the votes and their tie rules on distances whose
// answers are read off by hand.
func TestKNNErrors(t *testing.T) {
	train := []int{0, 1, 1, 0, 2}
	// Test document 0 (class 0): the training documents in index order
	// by distance. k=1: doc 0, class 0, right. k=3: classes 0, 1, 1 →
	// 1, wrong. k=5: 0 and 1 twice each, 2 once → the tie goes to the
	// nearest, doc 0's class 0, right.
	// Test document 1 (class 2): docs 1 and 4 tie at 0.1, doc 1 first
	// (index) → k=1: class 1, wrong. k=3: docs 1, 4, then 0 at 0.2:
	// classes 1, 2, 0, a three-way tie → doc 1's class 1, wrong. k=5:
	// 0: 2, 1: 2, 2: 1 → the nearest of classes 0 and 1 is doc 1, wrong.
	dist := []float64{
		0.1, 0.2, 0.3, 0.4, 0.5,
		0.2, 0.1, 0.3, 0.4, 0.1,
	}
	errs, nearest := KNNErrors(dist, train, []int{0, 2}, 3, []int{1, 3, 5})
	if want := []float64{0.5, 1, 0.5}; !slices.Equal(errs, want) {
		t.Errorf("errors %v, want %v", errs, want)
	}
	if want := []int{0, 1}; !slices.Equal(nearest, want) {
		t.Errorf("nearest %v, want %v", nearest, want)
	}
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"shape", func() { KNNErrors(dist[:9], train, []int{0, 2}, 3, []int{1}) }},
		{"k too large", func() { KNNErrors(dist, train, []int{0, 2}, 3, []int{6}) }},
		{"class", func() { KNNErrors(dist, train, []int{0, 3}, 3, []int{1}) }},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "docknn: ") {
					t.Errorf("%s: panic %v, want a docknn: panic", tc.name, r)
				}
			}()
			tc.f()
		}()
	}
}

// TestEmbedding checks that the ℓ₁ distance of the sparse embeddings
// (tsw.Sliced.SparseEmbed), by l1Dense as the run computes it and by
// tsw.L1, is the tree-sliced distance of package tsw, on random points,
// trees of both builders and random bags.
func TestEmbedding(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d = 60, 5
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	var trees []*tree.Tree
	for s := range uint64(3) {
		c, err := pointtree.Cluster(x, n, d, names, &pointtree.ClusterOptions{Seed: s, Depth: 3})
		if err != nil {
			t.Fatal(err)
		}
		q, err := pointtree.Quad(x, n, d, names, &pointtree.QuadOptions{Seed: s})
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, c, q)
	}
	s, err := tsw.New(trees, names)
	if err != nil {
		t.Fatal(err)
	}
	bag := func() Bag {
		k := 1 + rng.IntN(12)
		b := Bag{Words: rng.Perm(n)[:k], Mass: make([]float64, k)}
		var sum float64
		for i := range b.Mass {
			b.Mass[i] = rng.Float64() + 0.01
			sum += b.Mass[i]
		}
		for i := range b.Mass {
			b.Mass[i] /= sum
		}
		return b
	}
	dense := func(b Bag) []float64 {
		v := make([]float64, n)
		for k, i := range b.Words {
			v[i] = b.Mass[k]
		}
		return v
	}
	embed := func(b Bag) tsw.SparseVec { return s.SparseEmbed(tsw.SparseVec{}, b.Words, b.Mass) }
	scratch := make([]float64, s.EmbedLen())
	for range 50 {
		a, b := bag(), bag()
		ea, eb := embed(a), embed(b)
		got := tsw.L1(ea, eb)
		var norm float64
		for k, i := range ea.Index {
			scratch[i] = ea.Value[k]
			norm += math.Abs(ea.Value[k])
		}
		if sd := l1Dense(scratch, norm, eb); math.Abs(sd-got) > 1e-12*max(1, got) {
			t.Fatalf("l1Dense %v, tsw.L1 %v", sd, got)
		}
		clear(scratch)
		want := s.SparseDistance(a.Words, a.Mass, b.Words, b.Mass)
		if math.Abs(got-want) > 1e-12*max(1, want) {
			t.Fatalf("ℓ₁ of the embeddings %v, SparseDistance %v", got, want)
		}
		if dd := s.Distance(dense(a), dense(b)); math.Abs(got-dd) > 1e-12*max(1, dd) {
			t.Fatalf("ℓ₁ of the embeddings %v, Distance %v", got, dd)
		}
		if z := tsw.L1(embed(a), embed(a)); z != 0 {
			t.Fatalf("ℓ₁(Φ(a), Φ(a)) = %v", z)
		}
	}
}

func TestStripHeaders(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"post", "From: a@b.c (A)\nSubject: Re: re: Clipper chip\nOrganization: B\nLines: 3\n\nThe body.\n", "Clipper chip\nThe body.\n"},
		{"continued subject", "Subject: long\n  subject\nX-Y.Z: w\n\nbody", "long  subject\nbody"},
		{"crlf", "From: x\r\nSubject: s\r\n\r\nbody", "s\nbody"},
		{"headers only", "From: x\nSubject: s", "s"},
		{"no headers", "Just text: with a colon\nand more", "Just text: with a colon\nand more"},
		{"blank first", "\nFrom: x\n\nbody", "\nFrom: x\n\nbody"},
		{"prose after a header", "From: x\nnot a header\n\nbody", "From: x\nnot a header\n\nbody"},
		{"space in name", "Not a: header\n\nbody", "Not a: header\n\nbody"},
	} {
		if got := StripHeaders(tc.in); got != tc.want {
			t.Errorf("%s: StripHeaders(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestStopWords(t *testing.T) {
	if !slices.IsSorted(StopWords) {
		t.Error("StopWords is not sorted")
	}
	for i := 1; i < len(StopWords); i++ {
		if StopWords[i] == StopWords[i-1] {
			t.Errorf("%q twice", StopWords[i])
		}
	}
	for _, w := range StopWords {
		if w != strings.ToLower(w) || strings.ContainsAny(w, " \t") {
			t.Errorf("stop word %q is not a lower-case token", w)
		}
	}
}

func TestBags(t *testing.T) {
	vec := "4 2\napple 1 0\npear 1 0.1\nhammer 0 1\nsaw 0.1 1\n"
	src, err := embedding.ReadVec(strings.NewReader(vec), "v.vec")
	if err != nil {
		t.Fatal(err)
	}
	lex := newLexicon(src)
	var tc TokenCounts
	pos := map[int32]int{}
	// "the" and "and" are stop words, "kiwi" has no vector; saw ×3, apple
	// ×2, then pear and hammer once each, pear first in the text: with
	// three words, hammer is cut.
	b := makeBag("The apple and THE saw, a pear; saw apple kiwi hammer saw", &vocab.Tokenizer{}, lex, 3, pos, &tc)
	var words []string
	for _, r := range b.rows {
		words = append(words, lex.words[r])
	}
	if want := []string{"saw", "apple", "pear"}; !slices.Equal(words, want) || !slices.Equal(b.counts, []int{3, 2, 1}) {
		t.Errorf("bag %v %v, want %v [3 2 1]", words, b.counts, want)
	}
	want := TokenCounts{Tokens: 12, Stop: 4, NoVector: 1, Truncated: 1, Kept: 6, Distinct: 3, Truncs: 1}
	if tc != want {
		t.Errorf("counts %+v, want %+v", tc, want)
	}
	pts, bags := union(lex, []rawBag{b})
	if !slices.Equal(pts.names, []string{"saw", "apple", "pear"}) || !slices.Equal(pts.row(1), []float64{1, 0}) {
		t.Errorf("points %v %v", pts.names, pts.x)
	}
	if m := bags[0][0].Mass; !slices.Equal(m, []float64{0.5, 2.0 / 6, 1.0 / 6}) {
		t.Errorf("masses %v", m)
	}
}

// toyData writes a corpus of two classes whose words lie in two distant
// groups (fruit near (1, 0, 0), tools near (0, 1, 0)), each document a few
// words of its class and one shared word, and the vectors, into dir.
func toyData(t testing.TB, dir string, nTrain, nTest int) (train, test, vec string) {
	t.Helper()
	fruit := []string{"apple", "pear", "plum", "fig", "kiwi", "lime"}
	tools := []string{"hammer", "saw", "drill", "wrench", "chisel", "pliers"}
	var v strings.Builder
	fmt.Fprintf(&v, "%d 3\n", len(fruit)+len(tools)+1)
	for i, w := range fruit {
		fmt.Fprintf(&v, "%s 1 %g %g\n", w, 0.05*float64(i), 0.01*float64(i%3))
	}
	for i, w := range tools {
		fmt.Fprintf(&v, "%s %g 1 %g\n", w, 0.05*float64(i), 0.01*float64(i%2))
	}
	v.WriteString("thing 0.5 0.5 1\n")
	rng := rand.New(rand.NewPCG(7, 8))
	write := func(name string, n int) string {
		var b strings.Builder
		for i := range n {
			words, label := fruit, "food"
			if i%2 == 1 {
				words, label = tools, "workshop"
			}
			var text []string
			for range 3 + rng.IntN(4) {
				text = append(text, words[rng.IntN(len(words))])
			}
			text = append(text, "the", "thing")
			js, _ := json.Marshal(map[string]any{"text": "From: someone\nSubject: " + text[0] + "\n\n" + strings.Join(text[1:], " "), "labels": []string{label}})
			b.Write(js)
			b.WriteByte('\n')
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	vec = filepath.Join(dir, "toy.vec")
	if err := os.WriteFile(vec, []byte(v.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return write("train.jsonl", nTrain), write("test.jsonl", nTest), vec
}

func toyConfig(t testing.TB, nTrain, nTest int) Config {
	t.Helper()
	trainPath, testPath, vecPath := toyData(t, t.TempDir(), nTrain, nTest)
	train, err := corpus.ReadFile(trainPath, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	test, err := corpus.ReadFile(testPath, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	src, err := embedding.ReadFile(vecPath)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Train: train, Test: test, Emb: src, EmbSource: "toy.vec", DocsTrain: new(nTrain), DocsTest: new(nTest),
		Trees: []int{1, 3}, Ks: []int{1, 3}, Seed: 5}
}

// TestRun runs the experiment on the toy corpus: the classes are far
// apart, so every method classifies every test document right; a second
// run, on other Workers, gives the same numbers but the times.
func TestRun(t *testing.T) {
	cfg := toyConfig(t, 20, 10)
	var progress bytes.Buffer
	cfg.Progress = &progress
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Methods) != 1+2*2 || res.Methods[0].Name != "WMD" || res.Methods[4].Name != "TSW quad T=3" {
		t.Fatalf("methods %+v", res.Methods)
	}
	for _, m := range res.Methods {
		if !slices.Equal(m.Errors, []report.Float{0, 0}) || m.BestK != 1 {
			t.Errorf("%s: errors %v, best k %d", m.Name, m.Errors, m.BestK)
		}
		if m.PairSeconds <= 0 || m.Seconds <= 0 {
			t.Errorf("%s: times %v %v", m.Name, m.PairSeconds, m.Seconds)
		}
		if m.Name != "WMD" && (m.EmbedDiff > 1e-12 || m.EmbedPairSeconds <= 0 || m.BuildSeconds < 0) {
			t.Errorf("%s: embedded: diff %v, %v s a pair, build %v", m.Name, m.EmbedDiff, m.EmbedPairSeconds, m.BuildSeconds)
		}
	}
	if !slices.Equal(res.Classes, []string{"food", "workshop"}) || res.Points != 13 || res.Train.Documents != 20 || res.Train.Classes != 2 {
		t.Errorf("classes %v, %d points, %d documents", res.Classes, res.Points, res.Train.Documents)
	}
	// "From" and "someone" are gone with the headers; "the" is a stop
	// word.
	if res.Train.Stop != 20 || res.Train.NoVector != 0 {
		t.Errorf("train tokens %+v", res.Train)
	}
	for _, want := range []string{"docknn: 20 training documents (2 classes)", "docknn: WMD: ", "docknn: TSW cluster T=3: trees "} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, progress.String())
		}
	}
	md := res.Markdown()
	for _, want := range []string{"| WMD | **0.0** | **0.0** | 0.0 ± 0.0 (1) |", "| TSW quad T=1 | +0.0 |", "## The claim", "header blocks of posts dropped"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}

	cfg.Workers, cfg.Progress = new(3), nil
	again, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !sameNumbers(res, again) {
		t.Errorf("another run differs:\n%+v\n%+v", res.Methods, again.Methods)
	}
}

// sameNumbers reports whether two results agree in everything but times.
func sameNumbers(a, b *Result) bool {
	if len(a.Methods) != len(b.Methods) || a.Points != b.Points || a.Train != b.Train || a.Test != b.Test {
		return false
	}
	for i, m := range a.Methods {
		n := b.Methods[i]
		if m.Name != n.Name || !slices.Equal(m.Errors, n.Errors) || m.Agreement != n.Agreement || m.Correlation != n.Correlation || m.Ratio != n.Ratio {
			return false
		}
	}
	return true
}

// TestRunDeterministic: the distances depend on the seed alone, and
// another seed draws other documents and trees.
func TestRunDeterministic(t *testing.T) {
	cfg := toyConfig(t, 30, 12)
	cfg.DocsTrain, cfg.DocsTest = new(16), new(8)
	a, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !sameNumbers(a, b) {
		t.Error("two runs with one seed differ")
	}
	cfg.Seed++
	c, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Train == c.Train && a.Methods[1].Correlation == c.Methods[1].Correlation {
		t.Error("another seed gives the same documents and trees")
	}
	if TreeSeed(1, BuilderCluster, 0) == TreeSeed(1, BuilderQuad, 0) || TreeSeed(1, BuilderCluster, 0) == TreeSeed(1, BuilderCluster, 1) {
		t.Error("tree seeds collide")
	}
}

func TestRunErrors(t *testing.T) {
	cfg := toyConfig(t, 6, 4)
	cfg.DocsTrain, cfg.DocsTest = new(7), new(4)
	if _, err := Run(cfg); !errors.Is(err, ErrData) || !strings.Contains(err.Error(), "has 6 documents with a word left of the 7 asked for") {
		t.Errorf("too few documents: %v", err)
	}
	cfg.DocsTrain = new(6)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg.Context = ctx
	if _, err := Run(cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	cfg.Context = nil
	for _, tc := range []struct {
		name string
		edit func(*Config)
		msg  string
	}{
		{"no train", func(c *Config) { c.Train = nil }, "training and test documents are required"},
		{"no vectors", func(c *Config) { c.Emb = nil }, "word vectors are required"},
		{"words 0", func(c *Config) { c.Words = new(0) }, "Words = 0: must be from 1"},
		{"words", func(c *Config) { c.Words = new(-1) }, "Words = -1: must be from 1 to 65536"},
		{"trees", func(c *Config) { c.Trees = []int{0} }, "Trees = 0: each must be from 1"},
		{"no trees", func(c *Config) { c.Trees = []int{} }, "Trees: is empty"},
		{"k", func(c *Config) { c.Ks = []int{7} }, "Ks = 7: each must be from 1 to 6"},
		{"builder", func(c *Config) { c.Builders = []string{"quad", "oak"} }, `Builders = quad,oak: unknown "oak"`},
		{"builder twice", func(c *Config) { c.Builders = []string{"quad", "quad"} }, `"quad" named twice`},
	} {
		c := cfg
		tc.edit(&c)
		if _, err := Run(c); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.msg)
		}
	}
	// The default k that fit: 1, 3, 5 of six training documents.
	cfg.Trees, cfg.Ks = nil, nil
	r, err := cfg.Resolve()
	if err != nil || !slices.Equal(r.Ks, []int{1, 3, 5}) || !slices.Equal(r.Trees, DefaultTrees) || r.Words != DefaultWords {
		t.Errorf("resolved %+v (%v)", r, err)
	}
}

// TestClass: one label is the class; with a label tree, the most specific
// label of a set closed under ancestors.
func TestClass(t *testing.T) {
	tr, err := tree.Read(strings.NewReader("comp\tcomp.sys\ncomp.sys\tcomp.sys.mac\ncomp\tcomp.os\n"), "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	docs := `{"text": "a", "labels": ["comp.sys.mac"]}
{"text": "b", "labels": ["comp.sys.mac", "comp.os"]}
`
	c, err := corpus.Read(strings.NewReader(docs), "d.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := classOf(c, c.Docs[0]); got != "comp.sys.mac" || err != nil {
		t.Errorf("class %q (%v)", got, err)
	}
	if _, err := classOf(c, c.Docs[1]); !errors.Is(err, ErrData) || !strings.Contains(err.Error(), "d.jsonl:2: the document has 2 most specific labels") {
		t.Errorf("two most specific labels: %v", err)
	}
	flat, err := corpus.Read(strings.NewReader(docs), "d.jsonl", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := classOf(flat, flat.Docs[1]); !errors.Is(err, ErrData) || !strings.Contains(err.Error(), "has 2 labels") {
		t.Errorf("two labels without a tree: %v", err)
	}
}

// The real data, when present: a very small subset, to check that the
// files read and the numbers are sane.
const shared = "../../../shared/data"

func TestRealData(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 20 Newsgroups and the fastText vectors")
	}
	dir := filepath.Join(shared, "text", "20ng")
	vec := filepath.Join(shared, "embeddings", "novels-fasttext-100d.vec")
	for _, p := range []string{dir, vec} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("no data: %v", err)
		}
	}
	test, err := corpus.ReadFile(filepath.Join(dir, "test.jsonl"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	src, err := embedding.ReadFile(vec)
	if err != nil {
		t.Fatal(err)
	}
	// The test file is both: fewer bytes to read than the training one.
	res, err := Run(Config{Train: test, Test: test, Emb: src, DocsTrain: new(60), DocsTest: new(10), Words: new(20), Trees: []int{1, 2}, Ks: []int{1, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Dim != 100 || res.Train.Classes < 10 || res.Points < 300 || res.Train.Kept == 0 {
		t.Errorf("dimension %d, %d classes, %d points, %+v", res.Dim, res.Train.Classes, res.Points, res.Train)
	}
	for _, m := range res.Methods {
		if m.BestError > 0.99 || m.Correlation < 0.3 || !(m.PairSeconds > 0) {
			t.Errorf("%s: best error %v, correlation %v, %v s a pair", m.Name, m.BestError, m.Correlation, m.PairSeconds)
		}
	}
}

// TestJSONKeys pins the keys of docknn.json and their order, written out
// by hand from the format's fields: readers of the file rely on both.
func TestJSONKeys(t *testing.T) {
	m := Method{Name: "TSW cluster T=4", Builder: BuilderCluster, Trees: 4}
	m.CostShare, m.BuildSeconds, m.EmbedSeconds, m.EmbedPairSeconds, m.EmbedSpeedup, m.EmbedDiff, m.TotalSpeedup = 1, 1, 1, 1, 1, 1, 1
	for _, tc := range []struct {
		v    any
		want []string
	}{
		{&Result{}, []string{"format", "config", "machine", "train", "test", "classes", "points", "dim", "methods",
			"cpu_clock", "utilization", "seconds"}},
		{&m, []string{"name", "builder", "trees", "errors", "best_k", "best_error", "seconds", "cpu_seconds",
			"pair_seconds", "speedup", "cost_share", "build_seconds", "embed_seconds", "embed_pair_seconds",
			"embed_speedup", "embed_max_rel_diff", "total_speedup", "nn_agreement", "correlation", "ratio"}},
	} {
		data, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := testutil.JSONKeys(data); err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%T: keys %q, %v; want %q", tc.v, got, err, tc.want)
		}
	}
}
