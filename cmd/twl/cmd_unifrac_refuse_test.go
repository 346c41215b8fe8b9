package main

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestUnifracRefusesFlags: flag values with no meaning are usage errors
// (exit 2) naming the flag, before anything is read or written.
func TestUnifracRefusesFlags(t *testing.T) {
	dir := t.TempDir()
	tp, bp := randomCase(t, dir, 12, 6, 2)
	out := filepath.Join(dir, "d.tsv")
	before := dirNames(t, dir)
	gen := func(extra ...string) []string {
		return append([]string{"unifrac", "--tree", tp, "--table", bp, "--method", "generalized", "--out", out}, extra...)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		// Generalized UniFrac's α is defined on [0, 1] (Chen et al. 2012).
		// Main wrote a matrix of NaN for 1e308 and took -1.
		{gen("--alpha", "1e308"), "--alpha 1e+308: the exponent of generalized UniFrac is in [0, 1]"},
		{gen("--alpha", "-1"), "--alpha -1: the exponent of generalized UniFrac is in [0, 1]"},
		{gen("--alpha", "1.5"), "--alpha 1.5: the exponent"},
		{gen("--alpha", "NaN"), "--alpha NaN: the exponent"},
		// A typed 0 is no way to turn the analysis off (main wrote the
		// matrix, no PCoA, exit 0).
		{gen("--pcoa", "0"), "--pcoa 0: give the number of axes, at least 1"},
		{gen("--pcoa", "-1"), "--pcoa -1: give the number of axes, at least 1"},
		// merge refuses what the command refuses (main merged, exit 0).
		{[]string{"unifrac", "merge", "p1.part", "--out", out, "--workers", "-1"}, "--workers -1 is negative"},
	} {
		code, stdout, errOut := twl(t, "", c.args...)
		expectFailure(t, code, stdout, errOut, 2, []string{c.msg}, dir, false)
		if after := dirNames(t, dir); !slices.Equal(after, before) {
			t.Errorf("%q: the folder holds %q", c.args, after)
		}
	}
	for _, a := range []string{"0", "1"} {
		if code, _, errOut := twl(t, "", gen("--alpha", a, "--out", "-")...); code != 0 {
			t.Errorf("--alpha %s: exit %d: %s", a, code, errOut)
		}
	}
}

// TestUnifracOutputsAllOrNothing: when an output of the PCoA cannot be
// written, the run leaves none of its files: the matrix (and an npy's ids)
// and the PCoA table are computed first and removed again if a later
// write fails. (Main left the matrix behind.)
func TestUnifracOutputsAllOrNothing(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full:", err)
	}
	dir := t.TempDir()
	tp, bp := randomCase(t, dir, 12, 6, 4)
	before := dirNames(t, dir)
	for _, extra := range [][]string{
		{"--out", filepath.Join(dir, "x.tsv"), "--pcoa", "2", "--pcoa-out", "/dev/full"},
		{"--out", filepath.Join(dir, "x.npy"), "--pcoa", "2", "--pcoa-out", "/dev/full"},
		{"--out", filepath.Join(dir, "x.tsv"), "--pcoa", "2", "--plot", filepath.Join(dir, "full.svg")},
	} {
		if plot := extra[len(extra)-1]; strings.HasSuffix(plot, ".svg") {
			// The plot goes to /dev/full through a link.
			if err := os.Symlink("/dev/full", plot); err != nil {
				t.Fatal(err)
			}
			before = dirNames(t, dir)
		}
		args := append([]string{"unifrac", "--tree", tp, "--table", bp, "--method", "unweighted"}, extra...)
		code, stdout, errOut := twl(t, "", args...)
		expectFailure(t, code, stdout, errOut, 1, []string{"no space left on device"}, dir, false)
		if strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: not one line: %q", extra, errOut)
		}
		if after := dirNames(t, dir); !slices.Equal(after, before) {
			t.Errorf("%q: the folder holds %q, had %q", extra, after, before)
		}
	}
}

// TestUnifracMergeMessages: a file that is no part, a truncated part, a
// missing shard and a NaN in a part are each one plain statement with
// 1-based rows.
func TestUnifracMergeMessages(t *testing.T) {
	dir := t.TempDir()
	tp, bp := randomCase(t, dir, 20, 10, 1)
	part := func(shard string) string {
		p := filepath.Join(dir, "p"+strings.ReplaceAll(shard, "/", "of")+".part")
		if code, _, errOut := twl(t, "", "unifrac", "--tree", tp, "--table", bp, "--method", "unweighted", "--shard", shard, "--out", p); code != 0 {
			t.Fatal(errOut)
		}
		return p
	}
	p1, p2 := part("1/3"), part("2/3")
	one := part("1/1")
	b, err := os.ReadFile(p2)
	if err != nil {
		t.Fatal(err)
	}
	// Shard 2/3 of 10 rows is rows 4 to 6 (distmat.Stripe(2, 3, 10, 64)
	// = [3, 6)); 12 bytes short of its 3×10 values, row 6 is cut.
	trunc := filepath.Join(dir, "trunc.part")
	os.WriteFile(trunc, b[:len(b)-12], 0o644)
	// The last value of the 1/1 part (S9 with itself) made NaN.
	c, _ := os.ReadFile(one)
	binary.LittleEndian.PutUint64(c[len(c)-16:], math.Float64bits(math.NaN()))
	nan := filepath.Join(dir, "nan.part")
	os.WriteFile(nan, c, 0o644)
	out := filepath.Join(dir, "d.tsv")
	for _, c := range []struct {
		parts []string
		msg   string
	}{
		// Main: "invalid partial matrix file: not a partial matrix file (it does not start with ...)".
		{[]string{p1, bp}, "twl: " + bp + " is not a partial file of 'twl unifrac --shard' (it does not start with twl-distmat-part)\n"},
		// Main: "rows [3, 10) are in no part".
		{[]string{p1}, "twl: rows 4 to 10 (1-based) are in no part: missing shard 2/3, 3/3\n"},
		// Main: "rows [3, 6) of 10 values need 240 bytes after the header".
		{[]string{p1, trunc}, "twl: " + trunc + ": the file ends after row 5 of 6 (shard 2/3 holds rows 4 to 6 of 10): truncated\n"},
		{[]string{nan}, `twl: distmat: the distance between samples "S9" and "S8" is NaN, not a finite number` + "\n"},
	} {
		code, stdout, errOut := twl(t, "", append(append([]string{"unifrac", "merge"}, c.parts...), "--out", out)...)
		if code != 1 || stdout != "" || errOut != c.msg {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.parts, code, errOut, c.msg)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: %s written", c.parts, out)
		}
	}
}
