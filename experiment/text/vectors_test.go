package text

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/tree"
)

// TestVectorsCoverage runs the experiment with pretrained vectors for the
// eight genre words of the toy corpus and checks that the report gives the
// coverage of the vectors used: each of the eight words is in 20 of the 80
// documents, so in far more than 2 (MinCount) of any seed's training
// documents, and the vocabulary holds all eight; nothing comes from
// subwords (the vectors have none), and every other word of the
// vocabulary is random.
func TestVectorsCoverage(t *testing.T) {
	tr, err := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"dragons", "swords", "murder", "detective", "soup", "recipe", "trains", "maps"}
	src, err := embedding.NewVectors(words, 2, make([]float32, 2*len(words)))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Train: toyCorpus(t, 80, tr), TreeSource: "genres.tree", ProtocolOptions: ProtocolOptions{Hidden: new(4), Epochs: new(1), Seeds: new(2)},
		Emb: src, EmbRef: textmodel.EmbeddingRef{Source: "toy.vec", SHA256: "abc"}, Losses: []string{"kl"}}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	md := res.Markdown()
	for _, run := range res.Runs {
		c := run.Coverage
		if c.InVocab != len(words) || c.Subword != 0 || c.InVocab+c.Random != run.Vocab {
			t.Errorf("seed %d: coverage %+v of a vocabulary of %d words, want %d found and the rest random", run.Seed, c, run.Vocab, len(words))
		}
		want := fmt.Sprintf("seed %d: 8 of the %d words of the vocabulary found, 0 from subwords, %d random", run.Seed, run.Vocab, run.Vocab-8)
		if !strings.Contains(md, want) {
			t.Errorf("text.md lacks %q", want)
		}
	}
	var js bytes.Buffer
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Config struct {
			Embeddings map[string]any `json:"embeddings"`
		} `json:"config"`
		Runs []struct {
			Coverage Coverage `json:"coverage"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if _, ok := back.Config.Embeddings["in_vocabulary"]; ok || back.Config.Embeddings["source"] != "toy.vec" {
		t.Errorf("config.embeddings %v: want the source without counts", back.Config.Embeddings)
	}
	if len(back.Runs) != 2 || back.Runs[0].Coverage.InVocab != len(words) {
		t.Errorf("runs' coverage in JSON: %+v", back.Runs)
	}
}

// TestMarkdownSingular runs one loss on one seed and checks that the report
// counts them in the singular.
func TestMarkdownSingular(t *testing.T) {
	tr, err := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(Config{Train: toyCorpus(t, 40, tr), ProtocolOptions: ProtocolOptions{Hidden: new(4), Epochs: new(1), Seeds: new(1)}, Losses: []string{"kl"}})
	if err != nil {
		t.Fatal(err)
	}
	md := res.Markdown()
	for _, want := range []string{"1 run (1 loss × 1 seed)", "across 1 seed of each run"} {
		if !strings.Contains(md, want) {
			t.Errorf("text.md lacks %q", want)
		}
	}
	for _, bad := range []string{"1 seeds", "1 runs", "1 losses", "1 epochs"} {
		if strings.Contains(md, bad) {
			t.Errorf("text.md has %q", bad)
		}
	}
}
