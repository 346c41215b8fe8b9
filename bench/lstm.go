package bench

import (
	"time"

	"github.com/twl-ldl/twl/lstm"
)

// LSTMShape is the shape of a timed training step of the LSTM text model.
type LSTMShape struct {
	Batch, Len, Dim, Hidden, Vocab int
}

// LSTMRecord is one timed LSTM training step: a line of
// 'twl bench lstm --format json'.
type LSTMRecord struct {
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

// Config returns the model configuration of s with L labels.
func (s LSTMShape) Config(L int) lstm.Config {
	return lstm.Config{Vocab: s.Vocab, Dim: s.Dim, Hidden: s.Hidden, Labels: L}
}

// LSTM times training steps (forward, backward, Adam) of the LSTM with L
// labels on random documents, with the word vectors trained or frozen. The
// step runs on GOMAXPROCS threads; workers is recorded as given.
func LSTM(L int, s LSTMShape, trainEmb bool, workers int, seed uint64, target time.Duration) LSTMRecord {
	step := lstm.BenchStep(s.Config(L), s.Batch, s.Len, trainEmb, nil, seed)
	n, sec, bytes := Measure(step, target)
	return LSTMRecord{Method: "lstm-train", TokensPerSecond: float64(s.Batch*s.Len) / sec, SecondsPerOp: sec, BytesPerOp: bytes,
		Batch: s.Batch, Len: s.Len, Dim: s.Dim, Hidden: s.Hidden, Labels: L, Vocab: s.Vocab, TrainEmb: trainEmb,
		Workers: workers, Iterations: n}
}
