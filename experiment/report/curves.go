package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/twl-ldl/twl/internal/plotutil"
	"github.com/twl-ldl/twl/train"
)

// EpochFilter passes on the progress lines of train.Train ("epoch E/N …")
// for every Every-th epoch and the last, and every other line, to W with
// Prefix.
type EpochFilter struct {
	W      io.Writer
	Prefix string
	Every  int
	buf    []byte
}

func (f *EpochFilter) Write(p []byte) (int, error) {
	f.buf = append(f.buf, p...)
	for {
		i := bytes.IndexByte(f.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := f.buf[:i+1]
		var e, n int
		if _, err := fmt.Sscanf(string(line), "epoch %d/%d", &e, &n); err != nil || e%f.Every == 0 || e == n {
			if _, err := fmt.Fprintf(f.W, "%s%s", f.Prefix, line); err != nil {
				return len(p), err
			}
		}
		f.buf = f.buf[i+1:]
	}
}

// MeanCurve returns the series named name of the mean, epoch by epoch, of
// the curves (one value per epoch each; curves of different lengths are
// averaged over those that reach an epoch).
func MeanCurve(name string, curves [][]Float) plotutil.Series {
	var sum []float64
	var count []int
	for _, c := range curves {
		for e, v := range c {
			if e >= len(sum) {
				sum = append(sum, 0)
				count = append(count, 0)
			}
			sum[e] += float64(v)
			count[e]++
		}
	}
	s := plotutil.Series{Name: name}
	for e := range sum {
		s.X = append(s.X, float64(e+1))
		s.Y = append(s.Y, sum[e]/float64(count[e]))
	}
	return s
}

// Curves returns what a run file records of its training history: the
// training and validation loss per epoch, the time of every epoch
// (validation included), and the training throughput for tokens training
// tokens per epoch (0 when no epoch took time).
func Curves(h train.History, tokens int) (trainLoss, valLoss []Float, seconds, tokensPerSecond Float) {
	var trainSeconds float64
	for _, e := range h.Epochs {
		trainLoss = append(trainLoss, Float(e.TrainLoss))
		valLoss = append(valLoss, Float(e.ValLoss))
		seconds += Float(e.Seconds)
		trainSeconds += e.TrainSeconds
	}
	if trainSeconds > 0 {
		tokensPerSecond = Float(float64(tokens) * float64(len(h.Epochs)) / trainSeconds)
	}
	return trainLoss, valLoss, seconds, tokensPerSecond
}
