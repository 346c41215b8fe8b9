package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/twl-ldl/twl/lstm"
)

// lstmShape is the shape of the timed step of bench lstm.
type lstmShape struct {
	batch, length, dim, hidden, vocab int
	freeze, trainEmb                  bool
}

// lstmRecord is one line of bench lstm --format json.
type lstmRecord struct {
	Method          string  `json:"method"` // "lstm-train"
	TokensPerSecond float64 `json:"tokens_per_second"`
	SecondsPerOp    float64 `json:"seconds_per_op"` // one step
	BytesPerOp      int64   `json:"bytes_per_op"`
	Batch           int     `json:"batch"`
	Len             int     `json:"len"`
	Dim             int     `json:"dim"`
	Hidden          int     `json:"hidden"`
	Labels          int     `json:"labels"`
	Vocab           int     `json:"vocab"`
	TrainEmb        bool    `json:"train_emb"`
	Workers         int     `json:"workers"`
	Iterations      int     `json:"iterations"`
}

// benchLSTM times training steps of the LSTM text model with L labels,
// frozen and trained word vectors (or one of them).
func benchLSTM(out *benchOut, L int, s lstmShape, workers int, seed uint64, target time.Duration, maxMem byteSize) error {
	e, asJSON := out.e, out.asJSON
	c := lstm.Config{Vocab: s.vocab, Dim: s.dim, Hidden: s.hidden, Labels: L}
	if need := c.Bytes(s.batch, s.length); need > float64(maxMem) {
		return fmt.Errorf("bench lstm: these sizes need about %s, more than --max-memory %s", formatBytes(need), maxMem.String())
	}
	// The products and cell steps run on GOMAXPROCS threads.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(workers))
	var modes []bool
	if !s.trainEmb {
		modes = append(modes, false)
	}
	if !s.freeze {
		modes = append(modes, true)
	}
	if !asJSON {
		fmt.Fprintf(out, "%-12s %-8s %6s %6s %4s %4s %6s %10s %12s %10s\n",
			"method", "vectors", "labels", "batch", "len", "dim", "hidden", "time/step", "tokens/s", "bytes/op")
	}
	for _, train := range modes {
		if err := out.start(); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "bench: lstm-train batch=%d len=%d dim=%d hidden=%d labels=%d train_emb=%v ...\n",
			s.batch, s.length, s.dim, s.hidden, L, train)
		step := lstm.BenchStep(c, s.batch, s.length, train, nil, seed)
		n, sec, bytes := measure(step, target)
		out.ran++
		rec := lstmRecord{Method: "lstm-train", TokensPerSecond: float64(s.batch*s.length) / sec, SecondsPerOp: sec, BytesPerOp: bytes,
			Batch: s.batch, Len: s.length, Dim: s.dim, Hidden: s.hidden, Labels: L, Vocab: s.vocab, TrainEmb: train,
			Workers: workers, Iterations: n}
		if asJSON {
			if err := out.enc.Encode(rec); err != nil {
				return err
			}
			continue
		}
		emb := "frozen"
		if train {
			emb = "trained"
		}
		if _, err := fmt.Fprintf(out, "%-12s %-8s %6d %6d %4d %4d %6d %10s %12.0f %10d\n", "lstm-train", emb, L, s.batch,
			s.length, s.dim, s.hidden, formatSeconds(sec), rec.TokensPerSecond, bytes); err != nil {
			return err
		}
	}
	return nil
}
