package synth

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// WriteSummary writes what d holds for people, as 'twl synth' prints it
// after WriteDir(dir): the files and their samples, the configuration, and
// how varied the training samples are (distinct v and u, the range and
// median of σ), with a warning when every training sample has the same v
// and u: a degenerate data set.
func (d *Data) WriteSummary(w io.Writer, dir string) error {
	m := d.Meta()
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "wrote %s: %s (%s), %s (%s)", dir, TreeFile, plural(d.Tree.Len(), "node"), TrainFile, plural(m.Train, "sample"))
	if d.Test != nil {
		fmt.Fprintf(&buf, ", %s (%s)", TestFile, plural(m.Test, "sample"))
	}
	fmt.Fprintf(&buf, ", %s\n", MetaFile)
	c := d.Config
	fmt.Fprintf(&buf, "%d nodes, %s (%s), x %s, W1 %s, W2 %s, sign %s, σ = %g·sigmoid\n",
		c.Nodes, plural(c.InputDim(), "feature"), c.Input, c.X, c.W1, c.W2, c.Sign, c.Scale)
	s := m.TrainSummary
	fmt.Fprintf(&buf, "training set: %d distinct v, %d distinct u, %d distinct (v, u); σ from %.3g to %.3g, median %.3g; %.0f%% with σ < 0.5\n",
		s.DistinctV, s.DistinctU, s.DistinctPairs, s.SigmaMin, s.SigmaMax, s.SigmaMedian, 100*s.SigmaBelowHalf)
	if s.DistinctPairs == 1 && s.Samples > 1 {
		buf.WriteString("warning: every training sample has the same v and u: the data set is degenerate (see --x-dist)\n")
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// plural returns "1 sample", "2 samples".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
