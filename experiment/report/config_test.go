package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var errTest = ErrConfigOf("test")

// TestConfigError checks the words of a ConfigError and that errors.Is
// finds the experiment's ErrConfig through it.
func TestConfigError(t *testing.T) {
	c := Checker{Kind: errTest}
	dst := 5
	if err := c.Int(&dst, nil, "Seeds", 1, 10); err != nil || dst != 5 {
		t.Errorf("unset: %v, %d: want the protocol's 5 kept", err, dst)
	}
	if err := c.Int(&dst, new(0), "Seeds", 1, 10); err == nil || dst != 5 {
		t.Fatalf("0: %v, %d: want an error and 5 kept", err, dst)
	} else {
		ce := AsConfigError(err)
		if ce == nil || ce.Setting != "Seeds" || ce.Value != "0" || ce.Problem != "must be from 1 to 10" || !errors.Is(err, errTest) {
			t.Errorf("0: %#v", ce)
		}
		if got := err.Error(); got != "test: invalid configuration: Seeds = 0: must be from 1 to 10" {
			t.Errorf("Error() = %q", got)
		}
	}
	if err := c.Int(&dst, new(7), "Seeds", 1, 10); err != nil || dst != 7 {
		t.Errorf("7: %v, %d", err, dst)
	}
	lr := 0.001
	if err := c.Positive(&lr, new(0.0), "LR"); AsConfigError(err) == nil || lr != 0.001 {
		t.Errorf("LR 0: %v, %v", err, lr)
	}
	list := []int{1, 4}
	if err := c.Ints(&list, []int{16, 1, 16}, "Trees", 1, 64); err != nil || len(list) != 2 || list[0] != 1 || list[1] != 16 {
		t.Errorf("Ints: %v, %v: want 1,16 (sorted, once each)", err, list)
	}
	if err := c.Ints(&list, []int{2, 0}, "Trees", 1, 64); err == nil || AsConfigError(err).Value != "2,0" {
		t.Errorf("Ints with 0: %v", err)
	}
	got, err := c.Subset("Losses", []string{"c", "a"}, []string{"a", "b", "c"})
	if err != nil || strings.Join(got, ",") != "a,c" {
		t.Errorf("Subset: %v, %v: want a,c in the order of all", got, err)
	}
	for _, ids := range [][]string{{}, {"a", "z"}, {"a", "a"}} {
		if _, err := c.Subset("Losses", ids, []string{"a", "b"}); AsConfigError(err) == nil {
			t.Errorf("Subset(%q): %v, want a ConfigError", ids, err)
		}
	}
	name, v, err := Protocol(c, "", []string{"reduced", "paper"}, 1, 2)
	if name != "reduced" || v != 1 || err != nil {
		t.Errorf("Protocol(\"\") = %s, %d, %v", name, v, err)
	}
	if _, _, err := Protocol(c, "full", []string{"reduced", "paper"}, 1, 2); AsConfigError(err).Setting != "Protocol" {
		t.Errorf("Protocol(full): %v", err)
	}
}

// TestErrConfigOf checks the words of an experiment's ErrConfig, written
// out by hand, and that two experiments' are told apart even under the
// same name.
func TestErrConfigOf(t *testing.T) {
	a, b := ErrConfigOf("synthetic"), ErrConfigOf("synthetic")
	if got := a.Error(); got != "synthetic: invalid configuration" {
		t.Errorf("Error() = %q", got)
	}
	if errors.Is(a, b) || errors.Is(&ConfigError{Kind: a}, b) || !errors.Is(&ConfigError{Kind: a}, a) {
		t.Error("errors.Is does not tell two ErrConfigOf errors apart")
	}
}

// TestTrainingDifferences checks the phrases against ones written out by
// hand, the singular of 1 and the losses' phrase included, and that ds is
// not changed.
func TestTrainingDifferences(t *testing.T) {
	ds := []Difference{Count("%s epochs", "%s epoch", 1, 500), Count("%s nodes", "%s node", 7, 7)}
	got := TrainingDifferences(5, 10, 1e-3, 1e-3, []string{"kl"}, 5, ds[:1]...)
	want := []string{"1 epoch instead of 500", "5 seeds instead of 10", "losses [kl] only"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if ds[1].Phrase != "%s nodes" {
		t.Errorf("TrainingDifferences wrote into its argument: %+v", ds[1])
	}
	got = TrainingDifferences(1, 10, 4e-3, 1e-3, []string{"a", "b"}, 2)
	want = []string{"1 seed instead of 10", "learning rate 0.004 instead of 0.001"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPlural checks the singular of 1 and the plural of every other count.
func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 seeds", 1: "1 seed", 2: "2 seeds"} {
		if got := Plural(n, "seed", "seeds"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
	d := Differences(Difference{Phrase: "%s epochs", Got: 50, Want: 500}, Difference{Phrase: "learning rate %s", Got: 0.004, Want: 0.001},
		Difference{Phrase: "%s seeds", Got: 10, Want: 10})
	if strings.Join(d, "; ") != "50 epochs instead of 500; learning rate 0.004 instead of 0.001" {
		t.Errorf("Differences: %q", d)
	}
}

// TestPairedTAllZero: when every difference is 0, t = 0/0 is undefined:
// NaN in the Comparison and in its JSON, and no number in a table.
func TestPairedTAllZero(t *testing.T) {
	a := []float64{0.5, 0.25, 0.125}
	c := PairedT(a, a, true)
	var js bytes.Buffer
	if err := WriteJSON(&js, c); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back["t"] != "NaN" || back["p"] != "NaN" || c.Ties != 3 {
		t.Errorf("JSON t %v, p %v, ties %d: want NaN, NaN, 3", back["t"], back["p"], c.Ties)
	}
	if tt, p := TP(c); tt != "n/a (all differences 0)" || p != "—" {
		t.Errorf("TP = %q, %q", tt, p)
	}
	// One seed: t undefined for want of a second difference.
	if tt, p := TP(PairedT([]float64{1}, []float64{2}, true)); tt != "—" || p != "—" {
		t.Errorf("one seed: TP = %q, %q", tt, p)
	}
	// A defined t, by hand: d = 1, 2, 3: mean 2, sd 1, t = 2/(1/√3) = 3.46.
	if tt, _ := TP(PairedT([]float64{0, 0, 0}, []float64{1, 2, 3}, true)); tt != "3.46" {
		t.Errorf("t = %q, want 3.46", tt)
	}
}

// TestGather checks that the parts' titles become sections with links and
// their headings move one level down.
func TestGather(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n\ntext\n\n## Sub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Gather(dir, "# All\n\n", Part{Title: "Part A: the paper's", File: "a.md"})
	want := "# All\n\n- [Part A: the paper's](#part-a-the-papers)\n\n## Part A: the paper's\n\n\ntext\n\n### Sub\n\n"
	if err != nil || string(got) != want {
		t.Errorf("Gather: %v\n%q\nwant\n%q", err, got, want)
	}
}
