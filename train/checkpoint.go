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

// describeDiff lists the fields in which two keys differ.
func describeDiff(have, want checkpointKey) string {
	hv, wv := reflect.ValueOf(have), reflect.ValueOf(want)
	var parts []string
	for i := 0; i < hv.NumField(); i++ {
		a, b := hv.Field(i).Interface(), wv.Field(i).Interface()
		if a != b {
			name := hv.Type().Field(i).Name
			switch name {
			case "Val":
				parts = append(parts, "the validation rows differ")
				continue
			case "Learner":
				parts = append(parts, fmt.Sprintf("model and data %q, this run %q", a, b))
				continue
			}
			parts = append(parts, fmt.Sprintf("%s %v, this run %v", name, a, b))
		}
	}
	return strings.Join(parts, "; ")
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
