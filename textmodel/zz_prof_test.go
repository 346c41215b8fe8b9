package textmodel

import (
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/tree"
)

func TestZZProf(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	T := "/work/shared/data/text/20ng/"
	tr, _, err := ldl.OpenTree(T+"20ng.tree", 0, &tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	d, err := Load(Sources{Train: T + "train.jsonl", Val: 0.2, Seed: 0, Tree: tr, Emb: "/work/shared/data/embeddings/novels-fasttext-100d.vec"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("load %v", time.Since(t0))
	l, _ := ldl.NewLoss(tr, &ldl.Options{Loss: "kl+tw"})
	opts := Options{Model: KindBag, Emb: d.Emb, EmbRef: d.EmbRef, Loss: l, Epochs: 5, Patience: -1}
	opts.Vocab.MinCount = 2
	if v := os.Getenv("ZZMIN"); v != "" {
		opts.Bag.MinCount = int(v[0] - '0')
	}
	if v := os.Getenv("ZZB"); v != "" {
		opts.Bag.Features.Buckets, _ = strconv.Atoi(v)
	}
	t0 = time.Now()
	p, err := Prepare(d.Train, d.Val, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("prepare %v", time.Since(t0))
	t0 = time.Now()
	_, h, err := p.Fit(Run{Loss: l, Progress: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fit %v %v", time.Since(t0), h.Epochs[0])
}

func TestZZPredict(t *testing.T) {
	if os.Getenv("ZZPRED") == "" {
		t.Skip()
	}
	t0 := time.Now()
	m, err := ReadFile("/tmp/i28/runs/ng1.model")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("read %v", time.Since(t0))
	t0 = time.Now()
	c, err := ReadCorpus("/work/shared/data/text/20ng/test.jsonl", nil, &corpus.Options{Unlabeled: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("corpus %v", time.Since(t0))
	t0 = time.Now()
	if err := m.WritePredictions(io.Discard, c, PredictOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Logf("predict %v", time.Since(t0))
}
