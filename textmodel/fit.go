package textmodel

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/twl-ldl/twl/bag"
	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/lstm"
	"github.com/twl-ldl/twl/optim"
	"github.com/twl-ldl/twl/train"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

// Options control Fit. The zero value gives the paper's model and
// training (hidden size 200, 100 epochs, batch 100, Adam at 1e-3) with
// random 100-dimensional word vectors; Model KindBag gives the bag of
// n-grams with the defaults of DefaultBag.
type Options struct {
	// Model is the kind of network: KindLSTM ("" means it) or KindBag.
	Model string
	// Bag holds the settings of the bag of n-grams that Options has not;
	// its zero fields mean DefaultBag's.
	Bag BagOptions

	Tokenizer vocab.Tokenizer
	Vocab     vocab.Options
	Hidden    int // the LSTM's H; 0 means 200, the paper's

	// Emb gives the initial word vectors; nil: random vectors of EmbDim
	// (0 means 100) dimensions. EmbRef records their source in the model
	// file (Fit fills in the coverage).
	Emb      embedding.Source
	EmbDim   int
	EmbRef   EmbeddingRef
	TrainEmb bool // the LSTM: train the word vectors; default: frozen (the bag always trains them)

	Target  corpus.Target // how label sets become target distributions
	AsGiven bool          // the label sets were read as given (recorded in the model file)
	Loss    loss.Loss     // the training loss; nil means KL
	// Epochs, Batch and LR: 0 means the kind's default: for the LSTM 100
	// epochs, batch 100 and Adam's step size 1e-3; for the bag those of
	// DefaultBag, LR being the initial learning rate of SGD, which decays
	// linearly to 0 over the epochs.
	Epochs int
	Batch  int
	LR     float64
	// Patience stops training after that many epochs without a better
	// validation loss. For the LSTM 0 means never; for the bag 0 means
	// DefaultBag's (never), and a negative Patience never stops early.
	Patience int
	Seed     uint64 // initialization and mini-batches

	Progress   io.Writer               // one line per epoch, when not nil
	OnBatch    func(BatchProgress)     // called after every mini-batch, when not nil
	OnResume   func(epoch, epochs int) // called before training when a checkpoint is resumed
	Checkpoint string                  // resumable training, when not empty
	// Context, when not nil, stops training at the next mini-batch once
	// it is done, keeping the last complete checkpoint (train.Config).
	Context context.Context
	Tree    tree.Ref // recorded in the model file
	Data    string   // recorded in the model file
}

// Prepared is a training run's data before training: the vocabulary of
// the training documents, the encoded documents (training first, then
// validation) and their targets. Fit makes it; experiments that train
// several losses on the same data make it once with Prepare.
type Prepared struct {
	tree  *tree.Tree
	Vocab *vocab.Vocab
	// Index maps the bag's features to its rows (nil for the LSTM).
	Index *bag.Index
	// WordIndex, when not nil, is that of a second bag of the words
	// alone (BagOptions.Single false), whose documents are WordDocs: the
	// word rows of Docs.
	WordIndex *bag.Index
	WordDocs  [][]int32
	// Docs are the network's inputs: the LSTM's token IDs, or the rows of
	// the bag (of n-grams, with a bag of words beside it: not the layout
	// of bag.Ensemble.Encode, which Encode gives).
	Docs    [][]int32
	Y       []float64
	NTrain  int // the first NTrain documents are the training ones
	Tokens  int // tokens of the training documents
	Types   int // distinct tokens of the training documents, in the vocabulary or not
	Labels  []string
	options Options
}

// Prepare counts the vocabulary of trainSet under opts, encodes both sets
// and makes their targets. val may be nil. Both must be read with the same
// tree.
func Prepare(trainSet, val *corpus.Corpus, opts Options) (*Prepared, error) {
	if trainSet.Tree == nil || (val != nil && val.Tree != trainSet.Tree) {
		return nil, errors.New("textmodel: the corpora must be read with the same label tree")
	}
	tk := opts.Tokenizer
	cnt := vocab.NewCounter()
	for _, d := range trainSet.Docs {
		cnt.Add(&tk, d.Text)
	}
	v := cnt.Vocab(&opts.Vocab)
	p := &Prepared{tree: trainSet.Tree, Vocab: v, NTrain: trainSet.Len(), Types: cnt.Types(), Labels: trainSet.Labels, options: opts}
	sets := []*corpus.Corpus{trainSet}
	if val != nil {
		sets = append(sets, val)
	}
	if opts.Model == KindBag {
		if err := p.prepareBag(sets); err != nil {
			return nil, err
		}
		return p, nil
	}
	if opts.Model != "" && opts.Model != KindLSTM {
		return nil, fmt.Errorf("textmodel: unknown model %q", opts.Model)
	}
	for k, c := range sets {
		for _, d := range c.Docs {
			ids := v.Encode(nil, &tk, d.Text)
			if k == 0 {
				p.Tokens += len(ids)
			}
			p.Docs = append(p.Docs, ids)
		}
		p.Y = append(p.Y, c.Targets(opts.Target)...)
	}
	return p, nil
}

// prepareBag encodes the documents of sets (training first) as the bag's
// features: their raw features, the buckets of the training documents'
// that occur often enough to get a row (bag.KeepBuckets), then the rows.
func (p *Prepared) prepareBag(sets []*corpus.Corpus) error {
	o := p.options.Bag.withDefaults()
	tk := p.options.Tokenizer
	if src := p.options.Emb; src != nil && !o.TrainingWordsOnly {
		v, err := withVectorWords(p.Vocab, src, &tk)
		if err != nil {
			return err
		}
		p.Vocab = v
	}
	V := p.Vocab.Len()
	var raw [][]int32
	for k, c := range sets {
		for _, d := range c.Docs {
			f, n := bag.AppendRaw(nil, o.Features, p.Vocab, &tk, d.Text)
			if k == 0 {
				p.Tokens += n
			}
			raw = append(raw, f)
		}
		p.Y = append(p.Y, c.Targets(p.options.Target)...)
	}
	kept := bag.KeepBuckets(raw[:p.NTrain], V, o.Features, o.MinCount)
	x, err := bag.NewIndex(V, o.Features, kept)
	if err != nil {
		return fmt.Errorf("textmodel: %w", err)
	}
	p.Index = x
	p.Docs = make([][]int32, len(raw))
	for i, r := range raw {
		p.Docs[i] = x.MapRaw(make([]int32, 0, len(r)), r)
		raw[i] = nil
	}
	if !o.Single && (o.Features.WordNgrams > 1 || o.Features.MaxN > 0) {
		wx, err := bag.NewIndex(V, bag.Features{WordNgrams: 1, Buckets: 1}, nil)
		if err != nil {
			return fmt.Errorf("textmodel: %w", err)
		}
		p.WordIndex = wx
		p.WordDocs = make([][]int32, len(p.Docs))
		for i, d := range p.Docs {
			w := make([]int32, 0, len(d))
			for _, f := range d {
				if f < int32(V) {
					w = append(w, f)
				}
			}
			p.WordDocs[i] = w
		}
	}
	return nil
}

// withVectorWords returns v with the words of src that it lacks added
// after its own, in src's order: those that tk reads as one token, itself.
func withVectorWords(v *vocab.Vocab, src embedding.Source, tk *vocab.Tokenizer) (*vocab.Vocab, error) {
	var words []string
	switch s := src.(type) {
	case *embedding.Vectors:
		words = s.Words
	case *embedding.FastText:
		words = s.Words()
	}
	all := v.Words()
	var toks []string
	for _, w := range words {
		toks = tk.Append(toks[:0], w)
		if len(toks) == 1 && toks[0] == w && v.ID(w) == vocab.Unknown {
			all = append(all, w)
		}
	}
	if len(all) == v.Len() {
		return v, nil
	}
	nv, err := vocab.New(all)
	if err != nil {
		return nil, fmt.Errorf("textmodel: %w", err)
	}
	return nv, nil
}

// Encode returns the network's inputs for text: token IDs for the LSTM,
// rows of the bag's table for the bag.
func (p *Prepared) Encode(text string) []int32 {
	tk := p.options.Tokenizer
	if p.WordIndex != nil { // bag.Ensemble.Encode's layout
		dst := p.Index.EncodeCounted(nil, p.Vocab, &tk, text)
		return p.WordIndex.EncodeCounted(dst, p.Vocab, &tk, text)
	}
	if p.Index != nil {
		return p.Index.Encode(nil, p.Vocab, &tk, text)
	}
	return p.Vocab.Encode(nil, &tk, text)
}

// NewNet returns the LSTM for p, initialized from seed: lstm.Model.Init,
// then the word vectors of opts.Emb where it has them (embedding.NewTable,
// random rows for the others, from the same seed).
func (p *Prepared) NewNet(seed uint64) (*lstm.Model, EmbeddingRef) {
	o := p.options
	dim := o.EmbDim
	if o.Emb != nil {
		dim = o.Emb.Dim()
	} else if dim == 0 {
		dim = 100
	}
	hidden := o.Hidden
	if hidden == 0 {
		hidden = 200
	}
	net := lstm.NewModel(lstm.Config{Vocab: p.Vocab.Len(), Dim: dim, Hidden: hidden, Labels: len(p.Labels)})
	net.Init(rand.NewPCG(seed, 0x6c73746d)) // "lstm"
	ref := o.EmbRef
	ref.Trained = o.TrainEmb
	if o.Emb != nil {
		tab := embedding.NewTable(p.Vocab.Words(), o.Emb, rand.NewPCG(seed, 0x656d62), nil) // "emb"
		net.SetEmbeddings(tab.Data)
		ref.InVocab, ref.Subword, ref.Random = tab.Coverage.InVocab, tab.Coverage.Subword, tab.Coverage.Random
	} else {
		ref.Random = p.Vocab.Len()
	}
	return net, ref
}

// Tree returns the label tree of the prepared data.
func (p *Prepared) Tree() *tree.Tree { return p.tree }

// BatchProgress is where training stands within an epoch, after a
// mini-batch: Docs of the EpochDocs training documents of epoch Epoch (of
// Epochs) are done.
type BatchProgress struct {
	Epoch, Epochs   int
	Docs, EpochDocs int
}

// Run is one training run on prepared data.
type Run struct {
	Seed            uint64                  // initialization and mini-batches
	Loss            loss.Loss               // nil means KL
	Progress        io.Writer               // one line per epoch, when not nil
	Checkpoint      string                  // resumable training, when not empty
	CheckpointEvery int                     // epochs between checkpoints; 0 means 1
	OnBatch         func(BatchProgress)     // called after every mini-batch, when not nil
	OnResume        func(epoch, epochs int) // called before training when a checkpoint is resumed
	// Context, when not nil, stops training at the next mini-batch once
	// it is done, keeping the last complete checkpoint (train.Config).
	Context context.Context
}

// Fit trains a model on trainSet, validating on val (nil: none) each epoch
// and keeping the parameters of the best epoch, and returns it with the
// history of training.
func Fit(trainSet, val *corpus.Corpus, opts Options) (*Model, train.History, error) {
	p, err := Prepare(trainSet, val, opts)
	if err != nil {
		return nil, train.History{}, err
	}
	return p.Fit(Run{Seed: opts.Seed, Loss: opts.Loss, Progress: opts.Progress, Checkpoint: opts.Checkpoint, Context: opts.Context,
		OnBatch: opts.OnBatch, OnResume: opts.OnResume})
}

// Fit trains a network on the prepared data.
func (p *Prepared) Fit(run Run) (*Model, train.History, error) {
	o := p.options
	seed, l := run.Seed, run.Loss
	if l == nil {
		l = loss.NewKL(len(p.Labels))
	}
	if l.Labels() != len(p.Labels) {
		return nil, train.History{}, fmt.Errorf("textmodel: the loss has %d labels, the data %d", l.Labels(), len(p.Labels))
	}
	var valRows []int
	for r := p.NTrain; r < len(p.Docs); r++ {
		valRows = append(valRows, r)
	}
	epochs, batch, lr, patience := cmp.Or(o.Epochs, 100), cmp.Or(o.Batch, 100), cmp.Or(o.LR, 1e-3), max(o.Patience, 0)
	var (
		net      Network
		ln       train.Learner
		ref      EmbeddingRef
		schedule string
	)
	trainLoss := l                 // the members' losses, one block each, for an ensemble
	var validate *train.Validation // the ensemble's prediction, for an ensemble
	if p.Index != nil {
		d := DefaultBag
		epochs, batch, lr, schedule = cmp.Or(o.Epochs, d.Epochs), cmp.Or(o.Batch, d.Batch), cmp.Or(o.LR, d.LR), "linear"
		patience = cmp.Or(o.Patience, d.Patience)
		if patience < 0 || len(valRows) == 0 {
			patience = 0
		}
		steps := epochs * ((p.NTrain + batch - 1) / batch)
		if o.Bag.ConstantLR {
			steps, schedule = 0, ""
		}
		var bn *bag.Model
		bn, ref = p.newBag(p.Index, seed)
		lo := bag.LearnerOptions{LR: lr, Steps: steps}
		if p.WordIndex == nil {
			net, ln = bn, bag.NewLearner(bn, p.Docs, p.Y, lo)
		} else {
			// The bag of words starts from the same word vectors as the
			// other bag (a choice: the two differ by their features).
			wn := bag.New(p.WordIndex, bn.Dim, bn.Labels)
			wn.SetWords(bn.Emb[:bn.Words*bn.Dim])
			e := bag.NewEnsemble(bn, wn)
			el := bag.NewEnsembleLearner(e, [][][]int32{p.Docs, p.WordDocs}, p.Y, lo)
			net, ln, trainLoss = e, el, loss.Blocks(l, 2)
			// Validation scores what the model predicts, the mean of the
			// two, with the loss of one bag.
			validate = &train.Validation{Scorer: el.Mean(), Loss: l}
		}
	} else {
		var ln1 *lstm.Model
		ln1, ref = p.NewNet(seed)
		net, ln = ln1, lstm.NewLearner(ln1, p.Docs, p.Y, lstm.LearnerOptions{Adam: optim.Adam32{LR: o.LR}, TrainEmb: o.TrainEmb})
	}
	cfg := train.Config{Epochs: epochs, Batch: batch, Seed: seed, ValRows: valRows, Patience: patience,
		Progress: run.Progress, Checkpoint: run.Checkpoint, CheckpointEvery: run.CheckpointEvery, Context: run.Context, Tag: o.Tree.SHA256}
	if len(valRows) > 0 {
		cfg.Validate = validate
	}
	if f := run.OnBatch; f != nil {
		cfg.BatchEnd = func(epoch, rows int) { f(BatchProgress{epoch, epochs, rows, p.NTrain}) }
	}
	if f := run.OnResume; f != nil {
		cfg.Resuming = func(epoch int) { f(epoch, epochs) }
	}
	h, err := train.Train(ln, trainLoss, cfg)
	if err != nil {
		return nil, h, err
	}
	// The time of every epoch run, those before a resume included.
	var seconds float64
	for _, e := range h.Epochs {
		seconds += e.Seconds
	}
	info := &TrainInfo{Data: o.Data, Docs: p.NTrain, ValDocs: len(valRows), Epochs: epochs, EpochsRun: len(h.Epochs),
		BestEpoch: h.BestEpoch, Stopped: h.Stopped, Batch: batch, LR: lr, Schedule: schedule, Seed: seed, Seconds: seconds}
	if n := len(h.Epochs); n > 0 {
		info.TrainLoss = h.Epochs[n-1].TrainLoss
		if len(valRows) > 0 && h.BestEpoch > 0 {
			v := h.Epochs[h.BestEpoch-1].ValLoss
			info.ValLoss = &v
		}
	}
	m := &Model{
		Header: Header{Tokenizer: o.Tokenizer, Labels: p.Labels, Tree: o.Tree, Target: o.Target.String(), AsGiven: o.AsGiven,
			Embeddings: ref, Loss: l.Name(), Train: info},
		Vocab: p.Vocab, Net: net,
	}
	return m, h, nil
}

// newBag returns the bag of index x for p, initialized from seed: the word
// rows from the word vectors of opts.Emb where it has them and random rows
// for the other words (embedding.NewTable), the n-gram rows uniform on
// ±BagOptions.NgramScale, the output layer zero.
func (p *Prepared) newBag(x *bag.Index, seed uint64) (*bag.Model, EmbeddingRef) {
	o := p.options
	b := o.Bag.withDefaults()
	dim := cmp.Or(o.EmbDim, 100)
	if o.Emb != nil {
		dim = o.Emb.Dim()
	}
	net := bag.New(x, dim, len(p.Labels))
	ref := o.EmbRef
	ref.Trained = true
	tab := embedding.NewTable(p.Vocab.Words(), o.Emb, rand.NewPCG(seed, 0x656d62), &embedding.TableOptions{Dim: dim, Scale: b.WordScale}) // "emb"
	net.SetWords(tab.Data)
	ref.InVocab, ref.Subword, ref.Random = tab.Coverage.InVocab, tab.Coverage.Subword, tab.Coverage.Random
	net.InitNgrams(rand.NewPCG(seed, 0x6e6772616d), b.NgramScale) // "ngram"
	return net, ref
}
