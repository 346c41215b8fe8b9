package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/twl-ldl/twl/bench"
)

// lstmShape is the shape of the timed step of bench lstm.
type lstmShape struct {
	bench.LSTMShape
	freeze, trainEmb bool
}

// benchLSTM times training steps of the LSTM text model with L labels,
// frozen and trained word vectors (or one of them).
func benchLSTM(out *benchOut, L int, s lstmShape, workers int, seed uint64, target time.Duration, maxMem byteSize) error {
	e, asJSON := out.e, out.asJSON
	if need := s.Config(L).Bytes(s.Batch, s.Len); need > float64(maxMem) {
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
			s.Batch, s.Len, s.Dim, s.Hidden, L, train)
		rec := bench.LSTM(L, s.LSTMShape, train, workers, seed, target)
		out.ran++
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
		if _, err := fmt.Fprintf(out, "%-12s %-8s %6d %6d %4d %4d %6d %10s %12.0f %10d\n", "lstm-train", emb, L, s.Batch,
			s.Len, s.Dim, s.Hidden, formatSeconds(rec.SecondsPerOp), rec.TokensPerSecond, rec.BytesPerOp); err != nil {
			return err
		}
	}
	return nil
}
