package textmodel

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twl-ldl/twl/bag"
	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/labelset"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

// toyModels returns the LSTM of testdata/lstm-v2.model and a bag fitted to
// the toy corpus, each with its tree and documents to predict.
func toyModels(t *testing.T) []struct {
	name string
	m    *Model
	t    *tree.Tree
	docs string
} {
	lstmModel, err := ReadFile("testdata/lstm-v2.model")
	if err != nil {
		t.Fatal(err)
	}
	lstmTree, err := tree.ReadFile("testdata/toy.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	lstmDocs, err := os.ReadFile("testdata/toy.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	bagTree, err := tree.Read(strings.NewReader(genres), "g.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	var bagDocs strings.Builder
	for i := range 150 {
		fmt.Fprintf(&bagDocs, "{\"text\": \"%s\"}\n", []string{"dragons and kings", "soup for kings", "a cooking book of dragons", "kings", "tale", "zzz unknown"}[i%6]+" "+strconv.Itoa(i))
	}
	bagModel := fitToyBag(t, BagOptions{})
	bagModel.Labels = underscore(bagModel.Labels) // for fastText's layout
	return []struct {
		name string
		m    *Model
		t    *tree.Tree
		docs string
	}{
		{"lstm", lstmModel, lstmTree, string(lstmDocs)},
		{"bag", bagModel, bagTree, bagDocs.String()},
	}
}

// underscore returns the names with their spaces replaced by '_'.
func underscore(names []string) []string {
	var u []string
	for _, s := range names {
		u = append(u, strings.ReplaceAll(s, " ", "_"))
	}
	return u
}

// reference predicts the documents one at a time with a Predictor and
// writes each line as the documentation says, with sort.SliceStable for
// the order of the labels and fmt for the layout.
func reference(t *testing.T, m *Model, docs string, tr *tree.Tree, o PredictOptions) string {
	c, err := corpus.Read(strings.NewReader(docs), "docs", nil, &corpus.Options{Unlabeled: true})
	if err != nil {
		t.Fatal(err)
	}
	L := len(m.Labels)
	p := m.NewPredictor()
	row := make([]float64, L)
	var b strings.Builder
	for _, d := range c.Docs {
		p.Predict(row, []string{d.Text})
		var keep []int
		if o.Consistent {
			keep = labelset.NewDecoder(tr).Closed(nil, row, o.Top, o.MinMass)
		} else {
			for j := range L {
				if row[j] >= o.MinMass {
					keep = append(keep, j)
				}
			}
		}
		sort.SliceStable(keep, func(a, b int) bool { return row[keep[a]] > row[keep[b]] })
		if o.Top > 0 && len(keep) > o.Top {
			keep = keep[:o.Top]
		}
		var parts []string
		for _, j := range keep {
			if o.Layout == FastTextLayout {
				parts = append(parts, fmt.Sprintf("__label__%s %s", m.Labels[j], strconv.FormatFloat(row[j], 'g', 6, 64)))
			} else {
				parts = append(parts, fmt.Sprintf("%q: %s", m.Labels[j], strconv.FormatFloat(row[j], 'g', -1, 64)))
			}
		}
		if o.Layout == FastTextLayout {
			b.WriteString(strings.Join(parts, " ") + "\n")
		} else {
			b.WriteString("{" + strings.Join(parts, ", ") + "}\n")
		}
	}
	return b.String()
}

// TestPredictStream checks that PredictStream writes what predicting the
// documents one by one gives, for both kinds of model, in both layouts,
// with and without Top, MinMass and Consistent, whatever the number of
// workers and the batch size.
func TestPredictStream(t *testing.T) {
	for _, c := range toyModels(t) {
		for _, o := range []PredictOptions{
			{},
			{Top: 2},
			{MinMass: 0.2},
			{Top: 3, MinMass: 0.05, Layout: FastTextLayout},
			{Layout: FastTextLayout},
			{Consistent: true, Top: 2},
			{Consistent: true, MinMass: 0.3, Layout: FastTextLayout},
		} {
			o.Tree = c.t
			want := reference(t, c.m, c.docs, c.t, o)
			for _, workers := range []int{1, 2, 3} {
				for _, batch := range []int{1, 7, 0} {
					o.Workers, o.Batch = workers, batch
					s, err := corpus.NewScanner(strings.NewReader(c.docs), "docs", nil, &corpus.Options{Unlabeled: true})
					if err != nil {
						t.Fatal(err)
					}
					var got bytes.Buffer
					n, err := c.m.PredictStream(context.Background(), &got, s, o)
					if err != nil {
						t.Fatal(err)
					}
					if lines := strings.Count(want, "\n"); n != lines || got.String() != want {
						t.Fatalf("%s %+v: %d documents\n%s\nwant %d\n%s", c.name, o, n, got.String(), lines, want)
					}
				}
			}
		}
	}
}

// TestFastTextNumbers checks the masses of the fastText layout against C's
// printf("%g"), recorded with bash's printf builtin ('printf "%g" 0.912345678'
// and so on), which 'fasttext predict-prob' uses through C++ streams (6
// significant digits).
func TestFastTextNumbers(t *testing.T) {
	for v, want := range map[float64]string{
		0.912345678: "0.912346", 3.2e-05: "3.2e-05", 1e-05: "1e-05", 0.5: "0.5", 1: "1",
		0.000123456: "0.000123456", 0.0001: "0.0001", 0.999999951: "1", 2.5e-300: "2.5e-300", 0: "0",
	} {
		if got := string(strconv.AppendFloat(nil, v, 'g', 6, 64)); got != want {
			t.Errorf("%v: %q, want %q", v, got, want)
		}
	}
}

// TestPredictStreamLayout checks a line of the fastText layout by hand, an
// empty line for a document of which nothing is kept, another prefix, and
// the labels the layout cannot hold.
func TestPredictStreamLayout(t *testing.T) {
	m := fitToyBag(t, BagOptions{})
	// The toy's labels hold a space.
	if err := m.CheckLayout(FastTextLayout); err == nil || !strings.Contains(err.Error(), `"Epic Fantasy" holds white space`) {
		t.Errorf("CheckLayout: %v", err)
	}
	s, _ := corpus.NewScanner(strings.NewReader("a\n"), "d", nil, &corpus.Options{Unlabeled: true})
	if _, err := m.PredictStream(context.Background(), io.Discard, s, PredictOptions{Layout: FastTextLayout}); err == nil {
		t.Error("PredictStream wrote a label with a space in fastText's layout")
	}
	m.Labels = underscore(m.Labels)
	s, _ = corpus.NewScanner(strings.NewReader("soup for kings\n"), "d", nil, &corpus.Options{Unlabeled: true})
	var b bytes.Buffer
	if _, err := m.PredictStream(context.Background(), &b, s, PredictOptions{Layout: FastTextLayout, Top: 1, LabelPrefix: "#"}); err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(b.String())
	if len(f) != 2 || !strings.HasPrefix(f[0], "#") || !strings.HasSuffix(b.String(), "\n") {
		t.Fatalf("%q: want one label and its mass", b.String())
	}
	if v, err := strconv.ParseFloat(f[1], 64); err != nil || v < 1.0/7 || v > 1 {
		t.Errorf("mass %q", f[1])
	}
	s, _ = corpus.NewScanner(strings.NewReader("a\nb\n"), "d", nil, &corpus.Options{Unlabeled: true})
	b.Reset()
	if _, err := m.PredictStream(context.Background(), &b, s, PredictOptions{Layout: FastTextLayout, MinMass: 0.99}); err != nil || b.String() != "\n\n" {
		t.Errorf("nothing kept: %q, %v", b.String(), err)
	}
}

// TestPredictStreamStreams feeds documents through a pipe and checks that
// the first prediction comes out while the input is still open: the last
// document is written only once it has been read. Predictions that waited
// for the end of the input would never come (the test fails after 20 s).
func TestPredictStreamStreams(t *testing.T) {
	m := fitToyBag(t, BagOptions{})
	m.Labels = underscore(m.Labels)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		s, err := corpus.NewScanner(inR, "pipe", nil, &corpus.Options{Unlabeled: true})
		if err == nil {
			_, err = m.PredictStream(context.Background(), outW, s, PredictOptions{Workers: 2, Batch: 4, Layout: FastTextLayout, Top: 1})
		}
		outW.CloseWithError(err)
		inR.Close()
		done <- err
	}()
	const docs = 30
	seen := make(chan struct{})
	go func() {
		for i := range docs - 1 {
			fmt.Fprintf(inW, "soup for kings %d\n", i)
		}
		<-seen
		fmt.Fprintln(inW, "a tale of dragons")
		inW.Close()
	}()
	lines := bufio.NewScanner(outR)
	first := make(chan bool, 1)
	go func() { first <- lines.Scan() }()
	select {
	case ok := <-first:
		if !ok {
			t.Fatalf("no prediction: %v", lines.Err())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no prediction before the end of the input")
	}
	close(seen)
	n := 1
	for lines.Scan() {
		n++
	}
	if err := <-done; err != nil || n != docs {
		t.Errorf("%d predictions, %v", n, err)
	}
}

// errAfter gives its data, then fails.
type errAfter struct {
	r   io.Reader
	err error
}

func (e *errAfter) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		return n, e.err
	}
	return n, err
}

func TestPredictStreamErrors(t *testing.T) {
	m := fitToyBag(t, BagOptions{})
	docs := strings.Repeat("{\"text\": \"soup\"}\n", 100)
	predict := func(in io.Reader, o PredictOptions) (string, int, error) {
		s, err := corpus.NewScanner(in, "docs", nil, &corpus.Options{Unlabeled: true})
		if err != nil {
			return "", 0, err
		}
		var b bytes.Buffer
		n, err := m.PredictStream(context.Background(), &b, s, o)
		return b.String(), n, err
	}
	// A bad line: the documents before it are written.
	out, n, err := predict(strings.NewReader(docs+"{\"text\": 1}\n"+docs), PredictOptions{Batch: 8})
	if !errors.Is(err, corpus.ErrSyntax) || !strings.HasPrefix(err.Error(), "docs:101: ") || n != 100 || strings.Count(out, "\n") != 100 {
		t.Errorf("bad line: %d documents, %v", n, err)
	}
	// A read error.
	broken := errors.New("broken")
	if _, n, err = predict(&errAfter{strings.NewReader(docs), broken}, PredictOptions{}); !errors.Is(err, broken) || n != 100 {
		t.Errorf("read error: %d documents, %v", n, err)
	}
	// Label sets.
	if _, _, err = predict(strings.NewReader("[\"Cooking\"]\n"), PredictOptions{}); !errors.Is(err, ErrLabelSets) {
		t.Errorf("label sets: %v", err)
	}
	// Cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ := corpus.NewScanner(strings.NewReader(docs), "docs", nil, &corpus.Options{Unlabeled: true})
	if _, err := m.PredictStream(ctx, io.Discard, s, PredictOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// Broken weights in one member: an error naming the document, after the
	// ones before.
	m.Net.(*bag.Ensemble).Members[1].B[0] = float32(math.NaN()) // the bag of words alone
	_, n, err = predict(strings.NewReader(docs), PredictOptions{})
	var nf *NotFiniteError
	if !errors.As(err, &nf) || nf.File != "docs" || nf.Line != 1 || n != 0 || !strings.Contains(err.Error(), "docs:1: its weights are broken") {
		t.Errorf("broken weights: %d documents, %v", n, err)
	}
}

// BenchmarkPredictStream predicts 2,000 documents of 100 words with the toy
// bag, 1 and 2 workers, JSON Lines and fastText's layout; a document a
// line of plain text.
func BenchmarkPredictStream(b *testing.B) {
	tr, err := tree.Read(strings.NewReader(genres), "g.tree", nil)
	if err != nil {
		b.Fatal(err)
	}
	var lines []string
	for i := range 60 {
		lines = append(lines, []string{`{"text": "dragons and kings", "labels": ["Epic Fantasy"]}`, `{"text": "soup for kings", "labels": ["Cooking"]}`}[i%2])
	}
	c, err := corpus.Read(strings.NewReader(strings.Join(lines, "\n")), "toy", tr, nil)
	if err != nil {
		b.Fatal(err)
	}
	m, _, err := Fit(c, c, Options{Model: KindBag, EmbDim: 100, Epochs: 2, Seed: 1, Vocab: vocab.Options{MinCount: 1}})
	if err != nil {
		b.Fatal(err)
	}
	m.Labels = underscore(m.Labels)
	words := []string{"dragons", "soup", "kings", "tale", "cooking", "book", "swords", "unknown"}
	var in strings.Builder
	for i := range 2000 {
		for j := range 100 {
			in.WriteString(words[(i*7+j*3)%len(words)])
			in.WriteByte(' ')
		}
		in.WriteByte('\n')
	}
	docs := in.String()
	for _, layout := range []Layout{JSONLines, FastTextLayout} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("layout%d/workers%d", layout, workers), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(docs)))
				for b.Loop() {
					s, err := corpus.NewScanner(strings.NewReader(docs), "docs", nil, &corpus.Options{Unlabeled: true})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := m.PredictStream(context.Background(), io.Discard, s, PredictOptions{Workers: workers, Layout: layout}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
