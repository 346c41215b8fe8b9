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
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
)

const checkpointFormat = "twl-checkpoint/1"

var errNoCheckpoint = errors.New("no checkpoint")

// checkpoint is the resumable state of Fit, stored as JSON (floats in
// shortest round-trip form, so a resumed run is bit-identical).
type checkpoint struct {
	Format     string          `json:"format"`
	Key        checkpointKey   `json:"key"`
	Epoch      int             `json:"epoch"`
	Done       bool            `json:"done"`
	Params     []float64       `json:"params"`
	Adam       optim.AdamState `json:"-"`
	AdamT      int             `json:"adam_t"`
	AdamM      []float64       `json:"adam_m"`
	AdamV      []float64       `json:"adam_v"`
	RNG        []byte          `json:"rng"`
	History    History         `json:"history"`
	Best       float64         `json:"-"`
	BestJSON   *float64        `json:"best,omitempty"` // absent while +Inf
	BestParams []float64       `json:"best_params,omitempty"`
	SinceBest  int             `json:"since_best"`
}

// checkpointKey identifies the run a checkpoint belongs to.
type checkpointKey struct {
	In, L, N int
	Loss     string
	Batch    int
	Seed     uint64
	ValRows  int
	LR       float64
	Beta1    float64
	Beta2    float64
	Eps      float64
	Decay    float64
	DecayEnd int
	Patience int
	Data     string // FNV-1a hash of X, Y and the validation rows
	Tag      string // Config.Tag
}

func (c *checkpoint) setKey(m *model.Linear, l loss.Loss, d Data, cfg Config, epochs, batch int) {
	c.Key = makeKey(m, l, d, cfg, batch)
}

func makeKey(m *model.Linear, l loss.Loss, d Data, cfg Config, batch int) checkpointKey {
	return checkpointKey{
		In: m.In, L: m.Out, N: d.N, Loss: l.Name(), Batch: batch, Seed: cfg.Seed,
		ValRows: len(cfg.ValRows), LR: cfg.Adam.LR, Beta1: cfg.Adam.Beta1, Beta2: cfg.Adam.Beta2,
		Eps: cfg.Adam.Eps, Decay: cfg.Adam.WeightDecay, DecayEnd: cfg.Adam.DecayEnd, Patience: cfg.Patience,
		Data: dataHash(d, cfg.ValRows), Tag: cfg.Tag,
	}
}

// dataHash fingerprints the training data, so that a checkpoint is not
// resumed on other data of the same shape.
func dataHash(d Data, val []int) string {
	h := fnv.New64a()
	var b [8]byte
	for _, xs := range [][]float64{d.X, d.Y} {
		for _, x := range xs {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			h.Write(b[:])
		}
	}
	for _, r := range val {
		binary.LittleEndian.PutUint64(b[:], uint64(r))
		h.Write(b[:])
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// describeDiff lists the fields in which two keys differ.
func describeDiff(have, want checkpointKey) string {
	hv, wv := reflect.ValueOf(have), reflect.ValueOf(want)
	var parts []string
	for i := 0; i < hv.NumField(); i++ {
		a, b := hv.Field(i).Interface(), wv.Field(i).Interface()
		if a != b {
			name := hv.Type().Field(i).Name
			if name == "Data" {
				parts = append(parts, "the training data differ")
				continue
			}
			parts = append(parts, fmt.Sprintf("%s %v, this run %v", name, a, b))
		}
	}
	return strings.Join(parts, "; ")
}

func (c *checkpoint) matches(m *model.Linear, l loss.Loss, d Data, cfg Config, epochs, batch int) error {
	if want := makeKey(m, l, d, cfg, batch); c.Key != want {
		return fmt.Errorf("checkpoint belongs to another run (%s); remove it to start afresh", describeDiff(c.Key, want))
	}
	if len(c.Params) != len(m.Params) || len(c.AdamM) != len(m.Params) || len(c.AdamV) != len(m.Params) ||
		(c.BestParams != nil && len(c.BestParams) != len(m.Params)) {
		return errors.New("checkpoint is corrupt: parameter counts differ")
	}
	if c.Done && (c.History.Stopped || c.Epoch >= epochs) {
		return nil
	}
	c.Done = false
	return nil
}

func (c *checkpoint) save(path string) error {
	c.Format = checkpointFormat
	c.AdamT, c.AdamM, c.AdamV = c.Adam.T, c.Adam.M, c.Adam.V
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
	c.Adam = optim.AdamState{T: c.AdamT, M: c.AdamM, V: c.AdamV}
	c.Best = math.Inf(1)
	if c.BestJSON != nil {
		c.Best = *c.BestJSON
	}
	return &c, nil
}
