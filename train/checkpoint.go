package train

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"os"
	"reflect"
	"strings"

	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/loss"
)

const checkpointFormat = "twl-checkpoint/2"

var errNoCheckpoint = errors.New("no checkpoint")

// checkpoint is the resumable state of Train, stored as JSON: the learner's
// state and best parameters as the bytes its AppendState and AppendParams
// write (base64 in the JSON), exact, so that a resumed run is
// bit-identical.
type checkpoint struct {
	Format     string        `json:"format"`
	Key        checkpointKey `json:"key"`
	Epoch      int           `json:"epoch"`
	Done       bool          `json:"done"`
	State      []byte        `json:"state"`
	RNG        []byte        `json:"rng"`
	History    History       `json:"history"`
	Best       float64       `json:"-"`
	BestJSON   *float64      `json:"best,omitempty"` // absent while +Inf
	BestParams []byte        `json:"best_params,omitempty"`
	SinceBest  int           `json:"since_best"`
}

// checkpointKey identifies the run a checkpoint belongs to.
type checkpointKey struct {
	Learner  string // Learner.Key: the model, its settings and data
	L, N     int
	Loss     string
	Batch    int
	Seed     uint64
	ValRows  int
	Val      string // FNV-1a hash of the validation rows
	Patience int
	Tag      string // Config.Tag
}

func makeKey(ln Learner, l loss.Loss, cfg Config, batch int) checkpointKey {
	h := fnv.New64a()
	var b [8]byte
	for _, r := range cfg.ValRows {
		binary.LittleEndian.PutUint64(b[:], uint64(r))
		h.Write(b[:])
	}
	return checkpointKey{
		Learner: ln.Key(), L: ln.Labels(), N: ln.Rows(), Loss: l.Name(), Batch: batch, Seed: cfg.Seed,
		ValRows: len(cfg.ValRows), Val: fmt.Sprintf("%016x", h.Sum64()), Patience: cfg.Patience, Tag: cfg.Tag,
	}
}

// keyWords names the fields of a checkpoint key, and of the learners'
// keys ("lstm V=… D=…"), in a user's words.
var keyWords = map[string]string{
	"L": "labels", "N": "rows", "Loss": "loss", "Batch": "batch size", "Seed": "seed",
	"ValRows": "validation rows", "Patience": "patience",
	"V": "vocabulary size", "D": "word vector dimension", "H": "hidden size", "n": "documents",
	"in": "features", "train_emb": "training the word vectors", "lr": "learning rate",
	"beta1": "Adam's β1", "beta2": "Adam's β2", "eps": "Adam's ε", "decay": "weight decay", "decay_end": "end of the weight decay",
	"K": "n-gram vectors", "ngrams": "word n-grams", "minn": "shortest character n-gram", "maxn": "longest character n-gram",
	"buckets": "buckets", "steps": "steps of the learning rate's decay",
}

// describeDiff lists the fields in which two keys differ, in words.
func describeDiff(have, want checkpointKey) string {
	hv, wv := reflect.ValueOf(have), reflect.ValueOf(want)
	var parts []string
	for i := 0; i < hv.NumField(); i++ {
		a, b := hv.Field(i).Interface(), wv.Field(i).Interface()
		if a == b {
			continue
		}
		switch name := hv.Type().Field(i).Name; name {
		case "Val":
			parts = append(parts, "the validation rows differ")
		case "Tag":
			parts = append(parts, "the label tree differs")
		case "Learner":
			parts = append(parts, learnerDiff(a.(string), b.(string))...)
		default:
			parts = append(parts, fmt.Sprintf("%s %v, this run %v", keyWords[name], a, b))
		}
	}
	return strings.Join(parts, "; ")
}

// learnerDiff lists the fields in which two learner keys, "kind k=v …",
// differ.
func learnerDiff(have, want string) []string {
	hf, wf := strings.Fields(have), strings.Fields(want)
	if len(hf) == 0 || len(wf) == 0 || hf[0] != wf[0] || len(hf) != len(wf) {
		return []string{"another kind of model"}
	}
	var parts []string
	for i := 1; i < len(hf); i++ {
		k, a, _ := strings.Cut(hf[i], "=")
		_, b, _ := strings.Cut(wf[i], "=")
		switch {
		case a == b:
		case k == "data":
			parts = append(parts, "the training data differ")
		case keyWords[k] != "":
			parts = append(parts, fmt.Sprintf("%s %s, this run %s", keyWords[k], a, b))
		default:
			parts = append(parts, "the model's settings differ")
		}
	}
	return parts
}

// matches checks that the checkpoint belongs to the run of key want, and
// clears Done when the run asks for more epochs than a finished checkpoint
// holds (so that a finished run can be extended), unless it stopped early.
func (c *checkpoint) matches(want checkpointKey, epochs int) error {
	if c.Key != want {
		return fmt.Errorf("checkpoint belongs to another run (%s); remove it to start afresh", describeDiff(c.Key, want))
	}
	c.Done = c.Done && (c.History.Stopped || c.Epoch >= epochs)
	return nil
}

func (c *checkpoint) save(path string) error {
	c.Format = checkpointFormat
	c.BestJSON = nil
	if !math.IsInf(c.Best, 1) {
		b := c.Best
		c.BestJSON = &b
	}
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	return atomicfile.WriteFile(path, data, 0o644)
}

func loadCheckpoint(path string) (*checkpoint, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoCheckpoint
	}
	if err != nil {
		return nil, err
	}
	var c checkpoint
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: corrupt checkpoint: %w", path, err)
	}
	if c.Format != checkpointFormat {
		return nil, fmt.Errorf("%s: not a twl checkpoint (format %q, want %q)", path, c.Format, checkpointFormat)
	}
	c.Best = math.Inf(1)
	if c.BestJSON != nil {
		c.Best = *c.BestJSON
	}
	return &c, nil
}
