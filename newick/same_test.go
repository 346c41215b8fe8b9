package newick

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// sameResult fails t unless Parse and the reference parser give the same
// tree (names, parents, weights bit for bit, virtual root) or the same
// error message for b.
func sameResult(t *testing.T, b []byte, opts *Options) {
	t.Helper()
	got, gerr := Parse(b, "x.nwk", opts)
	want, werr := refParse(b, "x.nwk", opts)
	if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
		t.Fatalf("%q: error %v, reference %v", clip(b), gerr, werr)
	}
	if gerr != nil {
		return
	}
	if msg := diffTrees(got, want); msg != "" {
		t.Fatalf("%q: %s", clip(b), msg)
	}
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

func diffTrees(got, want *tree.Tree) string {
	if got.Len() != want.Len() || got.Virtual() != want.Virtual() || got.RootName() != want.RootName() {
		return "shapes differ: " + got.String() + " vs " + want.String()
	}
	for i := range got.Len() {
		if got.Name(i) != want.Name(i) || got.Parent(i) != want.Parent(i) ||
			math.Float64bits(got.Weight(i)) != math.Float64bits(want.Weight(i)) {
			return "node " + strconv.Itoa(i) + ": " + got.Name(i) + " vs " + want.Name(i)
		}
	}
	return ""
}

// TestSameAsReference compares Parse with the reference parser on the
// fuzz seeds, on random trees with every kind of label and length, and on
// generated text of realistic size.
func TestSameAsReference(t *testing.T) {
	for _, s := range fuzzSeeds {
		sameResult(t, []byte(s), nil)
		sameResult(t, []byte(s), &Options{Underscores: true})
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		b := randomNewick(rng, 1+rng.IntN(12))
		sameResult(t, b, nil)
		sameResult(t, b, &Options{Underscores: true})
	}
	sameResult(t, benchText(20_000), nil)
	sameResult(t, yuleText(20_000), nil)
}

// randomNewick writes a random tree of n tips whose labels and branch
// lengths are drawn from forms that exercise every path of the parser:
// numbers with many digits, exponents, support values, quoted and
// duplicated labels, blanks and comments.
func randomNewick(rng *rand.Rand, n int) []byte {
	lengths := []string{"", ":1", ":0.5", ":.25", ":3.", ":1e-3", ":2E+2", ":0.1234567890123456789", ":123456789012345678",
		":0.000000000000000000000001", ":-0", ":-1", ":0x10", ":1_0", ":inf", ":NaN", ": 7", ":", ":1.5.2", ":00012.5000",
		":9007199254740993", ":0.30000000000000004", ":1e400", ":4.9e-324", ":12345678901234.5", ":0.000123456789012345"}
	tips := []string{"A", "B", "A_b", "'q''t'", "'x y'", " C ", "#h", "<node 2>", "'<node 3>'", "0.5", "95", "", "t1", "t2", "'A'", "é", "a\tb", "[c]D"}
	inner := []string{"", "", "95", "0.95", "AB", "'Q'", "A", "<node 1>", "1e2", "N_1", "'95'"}
	var sb strings.Builder
	var emit func(k int)
	emit = func(k int) {
		if k <= 1 || rng.IntN(4) == 0 {
			sb.WriteString(tips[rng.IntN(len(tips))])
		} else {
			sb.WriteByte('(')
			left := 1 + rng.IntN(k-1)
			emit(left)
			sb.WriteByte(',')
			emit(k - left)
			sb.WriteByte(')')
			sb.WriteString(inner[rng.IntN(len(inner))])
		}
		sb.WriteString(lengths[rng.IntN(len(lengths))])
	}
	emit(n)
	sb.WriteString(";")
	if rng.IntN(10) == 0 {
		sb.WriteString("\n")
	}
	return []byte(sb.String())
}

// FuzzSameAsReference checks that Parse agrees with the reference parser
// on any input: the same tree or the same error message.
func FuzzSameAsReference(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, b []byte, underscores bool) {
		sameResult(t, b, &Options{Underscores: underscores})
	})
}
