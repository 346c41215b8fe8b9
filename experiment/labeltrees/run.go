package labeltrees

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/experiment/text"
	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
	"github.com/twl-ldl/twl/vocab"
)

// RunFormat identifies the JSON of a run file.
const RunFormat = "twl-labeltrees-run/1"

// ClusterDepth bounds the depth of the clustering trees: deep enough for a
// binary tree over thousands of labels.
const ClusterDepth = 32

// RunKey is everything that determines the outcome of one run: a run file
// whose key differs belongs to another experiment.
type RunKey struct {
	Condition string      `json:"condition"`
	Seed      int         `json:"seed"`
	Settings  RunSettings `json:"settings"`
	Data      string      `json:"data"`      // a hash of the documents and their labels
	Hierarchy string      `json:"hierarchy"` // SHA-256 of the data's tree
	Loss      string      `json:"loss"`      // the loss's name: λ, and the tree by its hash
	Emb       string      `json:"embeddings"`
	LabelEmb  string      `json:"label_embeddings,omitempty"`
	Scoring   string      `json:"scoring"` // Scoring: how the test measures are computed
}

// Scoring names how a run's test measures are computed, so that runs
// scored otherwise (by an earlier version) are not kept: top-k cost among
// the labels only, and the ROC-AUCs over the labels, not over every node
// of the hierarchy (whose other nodes, at score zero, would be negatives
// ranked below every positive and raise the micro and per-document AUCs).
const Scoring = "auc-over-labels"

// RunSettings are the protocol's numbers that shape one run (all but the
// number of seeds, so that seeds can be added): the text experiment's.
type RunSettings = text.RunSettings

// CondRun is one (condition, seed) training run and its scores on the test
// documents, measured on the data's hierarchy.
type CondRun struct {
	Format string `json:"format"`
	RunKey
	text.Scores
}

// TreeInfo describes the tree of a condition on a seed.
type TreeInfo struct {
	Condition string `json:"condition"`
	Seed      int    `json:"seed"`
	// File is the tree's file in the report folder, relative to it.
	File  string `json:"file,omitempty"`
	Nodes int    `json:"nodes"`
	// Scale is the factor its edges were multiplied by so that the mean
	// distance between two distinct labels is 2.
	Scale report.Float `json:"scale"`
	// Correlation is Pearson's correlation, over the pairs of distinct
	// labels, of their distance in this tree with their distance in the
	// data's hierarchy (NaN for the star, whose distances are all equal).
	Correlation report.Float `json:"correlation"`
}

// Run trains every condition of cfg on every seed, scores the test
// documents on the data's hierarchy, and summarizes the runs. With
// cfg.OutDir, finished runs found there are kept, new ones are written
// there as they finish, and the trees of every seed are written to
// OutDir/trees. Errors: an invalid cfg (wrapping ErrConfig), a label the
// vectors cannot place, a run file of other settings, I/O, and training
// errors.
func Run(cfg Config) (*Result, error) {
	r, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	began := time.Now()
	progress, _, _ := report.Setup(cfg.Progress, nil)
	fl, err := flatten(cfg.Train, cfg.Test)
	if err != nil {
		return nil, err
	}
	r.Labels, r.SingleLabel = fl.names, fl.single
	store, treeDir := runStore(report.RunDir(cfg.OutDir)), ""
	if err := store.Open(); err != nil {
		return nil, err
	}
	if cfg.OutDir != "" {
		treeDir = filepath.Join(cfg.OutDir, "trees")
		if err := os.MkdirAll(treeDir, 0o755); err != nil {
			return nil, err
		}
	}
	hier := cfg.Train.Tree
	hierHash := hier.Hash()
	dataHash := report.HashCorpora(cfg.Train, cfg.Test)
	hierDist := fl.distances(hier, fl.toTree)
	labelEmb := cfg.LabelEmb
	if labelEmb == nil {
		labelEmb = cfg.Emb
	}
	var namePoints []float64
	if slices.Contains(r.Conditions, Names) {
		if namePoints, err = fl.namePoints(labelEmb, r.LabelEmbeddings.Source); err != nil {
			return nil, err
		}
	}
	s := r.Settings
	// Top-k cost ranks the labels only: k at most their number.
	s.K = min(s.K, len(fl.names))
	r.Settings.K = s.K
	rs := text.RunSettingsOf(s)
	res := &Result{Header: report.NewHeader(ResultFormat, r)}

	// First every seed's split, trees and run keys, and the runs kept: a
	// tree that cannot be built (a label without training documents) or a
	// run file of another experiment stops the call before any training
	// and before any file is written.
	type planned struct {
		id, tag string
		l       loss.Loss
		info    *builtTree
		key     RunKey
		file    string // the condition in file names
		kept    *CondRun
	}
	type seedPlan struct {
		fit, val, test *corpus.Corpus
		runs           []planned
	}
	plans := make([]seedPlan, s.Seeds)
	total, done := s.Seeds*len(r.Conditions), 0
	for seed := 1; seed <= s.Seeds; seed++ {
		sp := &plans[seed-1]
		if sp.fit, sp.val, sp.test, err = fl.split(seed); err != nil {
			return nil, err
		}
		for _, id := range r.Conditions {
			done++
			pl := planned{id: id, tag: fmt.Sprintf("[%d/%d] %s seed %d", done, total, id, seed)}
			if pl.l, pl.info, err = fl.conditionLoss(id, seed, r.Lambda, hier, sp.fit, cfg.Emb, namePoints, hierDist, s.MaxLen); err != nil {
				return nil, fmt.Errorf("%s seed %d: %w", id, seed, err)
			}
			pl.key = RunKey{Condition: id, Seed: seed, Settings: rs, Data: dataHash, Hierarchy: hierHash,
				Loss: pl.l.Name(), Emb: cfg.EmbRef.SHA256, Scoring: Scoring}
			if id == Names {
				pl.key.LabelEmb = r.LabelEmbeddings.SHA256
			}
			pl.file = treeFileID(id)
			if pl.kept, err = store.Load(pl.file, seed, pl.key); err != nil {
				return nil, err
			}
			sp.runs = append(sp.runs, pl)
		}
	}

	for seed := 1; seed <= s.Seeds; seed++ {
		sp := &plans[seed-1]
		var prep *prepared // made by the first run of the seed that trains
		for _, pl := range sp.runs {
			tag, id := pl.tag, pl.id
			if info := pl.info; info != nil {
				if treeDir != "" {
					info.File = filepath.Join("trees", fmt.Sprintf("%s-seed%d.tree", treeFileID(id), seed))
					if err := writeTree(filepath.Join(cfg.OutDir, info.File), info.tree); err != nil {
						return nil, err
					}
				}
				res.Trees = append(res.Trees, info.TreeInfo)
			}
			if run := pl.kept; run != nil {
				fmt.Fprintf(progress, "%s: kept from %s (finished %s)\n", tag, store.Path(pl.file, seed), run.Finished)
				res.Runs = append(res.Runs, *run)
				res.Kept++
				continue
			}
			if prep == nil {
				if prep, err = fl.prepare(cfg, s, sp.fit, sp.val, sp.test); err != nil {
					return nil, err
				}
				fmt.Fprintf(progress, "labeltrees: seed %d: %d training, %d validation, %d test documents; %d labels; %d words\n",
					seed, prep.NTrain, len(prep.Docs)-prep.NTrain, len(prep.Test), len(fl.names), prep.Vocab.Len())
			}
			fmt.Fprintf(progress, "%s: training %s\n", tag, report.Plural(s.Epochs, "epoch", "epochs"))
			run, err := prep.train(cfg.Context, pl.key, pl.l, store.Checkpoint(pl.file, seed, pl.key), hier, fl, &report.EpochFilter{W: progress, Prefix: "    ", Every: 1})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", tag, err)
			}
			fmt.Fprintf(progress, "%s: done in %.0f s; test pseudo-recall %.4f, top-%d cost %.4f, wasserstein %.4f\n",
				tag, float64(run.Seconds), float64(run.Measures["pseudo_recall"]), s.K,
				float64(run.Measures["top_k_cost"]), float64(run.Measures["wasserstein"]))
			if err := store.Save(pl.file, seed, pl.key, run); err != nil {
				return nil, err
			}
			res.Runs = append(res.Runs, *run)
		}
	}
	res.summarize()
	res.Seconds = report.Float(time.Since(began).Seconds())
	return res, nil
}

// treeFileID is a condition's name in file names: "kl", "given", ….
func treeFileID(id string) string {
	if i := len("kl+tw:"); len(id) > i && id[:i] == "kl+tw:" {
		return id[i:]
	}
	return id
}

// writeTree writes t to path atomically. A forest whose roots hang from its
// virtual root by edges of weight other than 1 is written with that root as
// a node (named as t displays it), since the edge-list format does not hold
// those edges: the file then gives the distances t gives.
func writeTree(path string, t *tree.Tree) error {
	if t.Virtual() {
		var err error
		if t, err = rooted(t); err != nil {
			return err
		}
	}
	return atomicfile.WriteFile(path, []byte(t.Format()), 0o644)
}

// rooted returns the forest t with its virtual root made a node named
// t.RootName(), if an edge joining a root of t to it has a weight other
// than 1; otherwise t.
func rooted(t *tree.Tree) (*tree.Tree, error) {
	n := t.Len()
	parent, weight, names := make([]int, n+1), make([]float64, n+1), make([]string, n+1)
	unit := true
	for i := range n {
		parent[i], weight[i], names[i] = t.Parent(i), t.Weight(i), t.Name(i)
		if parent[i] < 0 {
			parent[i] = n
			unit = unit && weight[i] == 1
		}
	}
	if unit {
		return t, nil
	}
	parent[n], names[n] = -1, t.RootName()
	return tree.FromParents(parent, weight, names, nil)
}

// flat is the flat label set of the data: the labels the documents use, in
// the hierarchy's order, as a forest of single nodes.
type flat struct {
	names  []string
	toTree []int      // flat index → node of the hierarchy
	star   *tree.Tree // every label a root of its own, joined at the virtual root by an edge of 1
	single bool       // every document has one label
	train  *corpus.Corpus
	test   *corpus.Corpus // nil without a test file
}

// flatten returns the flat label set of train and test and the two corpora
// over it.
func flatten(train, test *corpus.Corpus) (*flat, error) {
	hier := train.Tree
	used := make([]bool, hier.Len())
	for _, c := range []*corpus.Corpus{train, test} {
		if c == nil {
			continue
		}
		for _, d := range c.Docs {
			for _, l := range d.Labels {
				used[l] = true
			}
		}
	}
	single := true
	for _, c := range []*corpus.Corpus{train, test} {
		for k := 0; c != nil && k < len(c.Docs); k++ {
			single = single && len(c.Docs[k].Labels) == 1
		}
	}
	fl := &flat{single: single}
	toFlat := make([]int, hier.Len())
	var b tree.Builder
	for i, u := range used {
		toFlat[i] = -1
		if u {
			toFlat[i] = len(fl.names)
			fl.names = append(fl.names, hier.Name(i))
			fl.toTree = append(fl.toTree, i)
			b.AddNode(hier.Name(i))
		}
	}
	if len(fl.names) < 2 {
		return nil, fmt.Errorf("%s: the documents use %d label; a comparison of trees needs at least 2", train.File, len(fl.names))
	}
	var err error
	if fl.star, err = b.Build(nil); err != nil {
		return nil, err
	}
	remap := func(c *corpus.Corpus) *corpus.Corpus {
		if c == nil {
			return nil
		}
		f := *c
		f.Tree, f.Labels = fl.star, fl.names
		f.Docs = make([]corpus.Doc, len(c.Docs))
		for k, d := range c.Docs {
			f.Docs[k] = d
			f.Docs[k].Labels = make([]int, len(d.Labels))
			for j, l := range d.Labels {
				f.Docs[k].Labels[j] = toFlat[l] // increasing, as the hierarchy's indices are
			}
		}
		return &f
	}
	fl.train, fl.test = remap(train), remap(test)
	return fl, nil
}

// split returns the training, validation and test documents of seed, as
// the text experiment splits them.
func (fl *flat) split(seed int) (fit, val, test *corpus.Corpus, err error) {
	fit, val, test, err = text.Split(fl.train, nil, fl.test, seed)
	if err != nil {
		err = fmt.Errorf("labeltrees: %w", err)
	}
	return fit, val, test, err
}

// distances returns the distances in t between the labels, at nodes
// node[0], node[1], …, pair by pair (i < j, row by row).
func (fl *flat) distances(t *tree.Tree, node []int) []float64 {
	n := len(node)
	d := make([]float64, 0, n*(n-1)/2)
	for i := range n {
		for j := i + 1; j < n; j++ {
			d = append(d, t.Distance(node[i], node[j]))
		}
	}
	return d
}

// nodesOf returns the nodes of t named after the labels.
func (fl *flat) nodesOf(t *tree.Tree) ([]int, error) {
	node := make([]int, len(fl.names))
	for i, name := range fl.names {
		v, ok := t.Index(name)
		if !ok {
			return nil, fmt.Errorf("labeltrees: the tree has no node %q", name)
		}
		node[i] = v
	}
	return node, nil
}

// namePoints returns the labels' names as points: the mean of the vectors
// of each name's words (vocab.Tokenizer's words: "comp.sys.mac.hardware"
// is comp, sys, mac, hardware).
func (fl *flat) namePoints(src embedding.Source, file string) ([]float64, error) {
	d := src.Dim()
	X := make([]float64, len(fl.names)*d)
	var tk vocab.Tokenizer
	for i, name := range fl.names {
		words := tk.Append(nil, name)
		if embedding.Mean(X[i*d:(i+1)*d], src, words) == 0 {
			return nil, fmt.Errorf("labeltrees: no word of the label %q has a vector in %s (words %q): give vectors that cover the label names, or leave out %s",
				name, file, words, Names)
		}
	}
	return X, nil
}

// centroids returns the labels' document centroids: for each label, the
// mean over the documents of c that have it of the document's mean word
// vector (its first maxLen tokens, as the model reads them).
func (fl *flat) centroids(c *corpus.Corpus, src embedding.Source, maxLen int) ([]float64, error) {
	d := src.Dim()
	X := make([]float64, len(fl.names)*d)
	count, docs := make([]int, len(fl.names)), make([]int, len(fl.names))
	m := make([]float64, d)
	tk := vocab.Tokenizer{MaxLen: maxLen}
	var words []string
	for _, doc := range c.Docs {
		for _, l := range doc.Labels {
			docs[l]++
		}
		words = tk.Append(words[:0], doc.Text)
		if embedding.Mean(m, src, words) == 0 {
			continue
		}
		for _, l := range doc.Labels {
			count[l]++
			for j, x := range m {
				X[l*d+j] += x
			}
		}
	}
	for l, n := range count {
		switch {
		case docs[l] == 0:
			return nil, fmt.Errorf("labeltrees: the label %q has no training document (%s, this seed's training part): the %s tree cannot place it; leave out %s",
				fl.names[l], fl.train.File, Docs, Docs)
		case n == 0:
			return nil, fmt.Errorf("labeltrees: none of the %d training documents of the label %q has a word with a vector in its first %d tokens: the %s tree cannot place it; leave out %s",
				docs[l], fl.names[l], maxLen, Docs, Docs)
		}
		for j := range d {
			X[l*d+j] /= float64(n)
		}
	}
	return X, nil
}

// builtTree is a condition's tree with what the report says of it.
type builtTree struct {
	TreeInfo
	tree *tree.Tree
}

// conditionLoss returns the loss of condition id on seed, and its tree
// (nil for KL).
func (fl *flat) conditionLoss(id string, seed int, lambda float64, hier *tree.Tree, fit *corpus.Corpus,
	emb embedding.Source, namePoints, hierDist []float64, maxLen int) (loss.Loss, *builtTree, error) {
	L := len(fl.names)
	var t *tree.Tree
	var err error
	opts := &pointtree.ClusterOptions{K: 2, Depth: ClusterDepth, Seed: uint64(seed)}
	switch id {
	case KL:
		return loss.NewKL(L), nil, nil
	case Given:
		t = hier
	case Star:
		t = fl.star
	case Names:
		t, err = pointtree.Cluster(namePoints, L, len(namePoints)/L, fl.names, opts)
	case Docs:
		var X []float64
		if X, err = fl.centroids(fit, emb, maxLen); err == nil {
			t, err = pointtree.Cluster(X, L, emb.Dim(), fl.names, opts)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	node, err := fl.nodesOf(t)
	if err != nil {
		return nil, nil, err
	}
	d := fl.distances(t, node)
	scale := 2 / stat.Mean(d, nil)
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, nil, fmt.Errorf("labeltrees: the %s tree puts every label at distance 0", treeFileID(id))
	}
	if scale != 1 {
		w := make([]float64, t.Len())
		for i := range w {
			w[i] = t.Weight(i) * scale
		}
		if t, err = t.Reweight(w); err != nil {
			return nil, nil, err
		}
	}
	s, err := tsw.New([]*tree.Tree{t}, fl.names)
	if err != nil {
		return nil, nil, err
	}
	info := &builtTree{TreeInfo: TreeInfo{Condition: id, Seed: seed, Nodes: t.Len(), Scale: report.Float(scale),
		Correlation: report.Float(report.Correlation(d, hierDist))}, tree: t}
	return loss.NewKLTSW(s, lambda), info, nil
}

// prepared is the data of one seed, with the test documents' label sets
// and targets.
type prepared struct {
	*text.SeedData
	testSets [][]int // label sets as nodes of the hierarchy
	testFlat [][]int // label sets as flat labels
	testY    []float64
}

// prepare encodes the documents of a seed.
func (fl *flat) prepare(cfg Config, s text.Settings, fit, val, test *corpus.Corpus) (*prepared, error) {
	opts := s.Options()
	opts.Emb, opts.EmbRef, opts.Target, opts.AsGiven = cfg.Emb, cfg.EmbRef, corpus.Uniform, true
	d, err := text.PrepareSeed(fit, val, test, opts)
	if err != nil {
		return nil, err
	}
	pr := &prepared{SeedData: d, testY: test.Targets(corpus.Uniform)}
	for _, doc := range test.Docs {
		set := make([]int, len(doc.Labels))
		for j, l := range doc.Labels {
			set[j] = fl.toTree[l]
		}
		pr.testSets = append(pr.testSets, set)
		pr.testFlat = append(pr.testFlat, doc.Labels)
	}
	return pr, nil
}

// onTree places rows over the flat labels (n × L) on the hierarchy's nodes,
// its other nodes at zero.
func (fl *flat) onTree(rows []float64, hier *tree.Tree) []float64 {
	L, H := len(fl.names), hier.Len()
	n := len(rows) / L
	out := make([]float64, n*H)
	for r := range n {
		for j, v := range rows[r*L : (r+1)*L] {
			out[r*H+fl.toTree[j]] = v
		}
	}
	return out
}

// score returns the test measures and their standard deviations of the
// predictions P (n × L, over the flat labels) against the targets Y (n × L)
// and the label sets, flat and as nodes of the hierarchy: the predictions
// placed on the hierarchy's nodes, its other nodes at zero, for the LDL
// measures; pseudo-recall and top-k cost (k ≤ L) ranking the labels only
// (the other nodes at −Inf, below every label) and measured by the
// hierarchy's path lengths; the ROC-AUCs over the labels, since the other
// nodes, never a document's label, would only add negatives ranked last.
func (fl *flat) score(P, Y []float64, flatSets, treeSets [][]int, hier *tree.Tree, k int) (mean, std map[string]report.Float) {
	mean, std = map[string]report.Float{}, map[string]report.Float{}
	PH, YH := fl.onTree(P, hier), fl.onTree(Y, hier)
	SH := slices.Clone(PH)
	isLabel := make([]bool, hier.Len())
	for _, v := range fl.toTree {
		isLabel[v] = true
	}
	H := hier.Len()
	for r := range len(SH) / H {
		for v, ok := range isLabel {
			if !ok {
				SH[r*H+v] = math.Inf(-1)
			}
		}
	}
	onHier := metric.NewMultiLabel(hier, k).Evaluate(SH, treeSets)
	onLabels := metric.NewMultiLabel(fl.star, k).Evaluate(P, flatSets)
	ldl := metric.NewEvaluator(hier, nil).Evaluate(PH, YH)
	for _, name := range metric.MultiLabelNames {
		ml := onHier
		if strings.HasPrefix(name, "roc_auc") {
			ml = onLabels
		}
		mean[name] = report.Float(ml.Mean[name])
		if sd, ok := ml.Std[name]; ok {
			std[name] = report.Float(sd)
		}
	}
	for _, name := range metric.Names {
		mean[name] = report.Float(ldl.Mean[name])
		std[name] = report.Float(ldl.Std[name])
	}
	return mean, std
}

// train trains one run, predicts the test documents and scores them on the
// hierarchy.
func (p *prepared) train(ctx context.Context, key RunKey, l loss.Loss, checkpoint string, hier *tree.Tree, fl *flat, progress io.Writer) (*CondRun, error) {
	P, sc, err := p.Train(ctx, textmodel.Run{Seed: uint64(key.Seed), Loss: l, Checkpoint: checkpoint}, progress)
	if err != nil {
		return nil, err
	}
	sc.Measures, sc.MeasuresStd = fl.score(P, p.testY, p.testFlat, p.testSets, hier, key.Settings.K)
	return &CondRun{Format: RunFormat, RunKey: key, Scores: sc}, nil
}

// runStore returns the store of the run files in dir ("" keeps none).
func runStore(dir string) *report.Store[RunKey, CondRun] {
	return &report.Store[RunKey, CondRun]{
		Dir: dir, Experiment: "labeltrees", Format: RunFormat,
		Header:   func(run *CondRun) (string, RunKey) { return run.Format, run.RunKey },
		Complete: func(run *CondRun) bool { return run.Complete() },
	}
}
