package tree_test

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
)

// TestReadErrors checks that every invalid file gives the right sentinel,
// the right 1-based line and a "FILE:LINE: " message, and never a panic.
func TestReadErrors(t *testing.T) {
	var long strings.Builder // a 100-cycle 0 → 1 → … → 99 → 0, closed on line 100
	for i := range 100 {
		long.WriteString(strconv.Itoa(i) + "\t" + strconv.Itoa((i+1)%100) + "\n")
	}
	for _, tc := range []struct {
		name string
		text string
		want error
		line int // 0: the error concerns the whole file
	}{
		{"empty", "", tree.ErrEmpty, 0},
		{"only comments and blanks", "# a comment\n\n   \n\t\n  # indented comment\r\n", tree.ErrEmpty, 0},
		{"2-cycle", "a\tb\nb\ta\n", tree.ErrCycle, 2},
		// Every node has a parent; the cycle a → b → c → a is closed on line
		// 3, and d hangs off it on line 4.
		{"cycle with tail", "a\tb\nb\tc\nc\ta\nc\td\n", tree.ErrCycle, 3},
		// A cycle beside a valid tree: the cycle's last edge is on line 5.
		{"cycle beside tree", "r\tx\n# c\nu\tv\nr\ty\nv\tu\n", tree.ErrCycle, 5},
		{"100-cycle", long.String(), tree.ErrCycle, 100},
		{"self-loop", "# c\n\na\tb\nb\tb\n", tree.ErrSelfLoop, 4},
		{"self-loop weighted", "a\ta\t1\n", tree.ErrSelfLoop, 1},
		{"two parents", "a\tb\nc\tb\n", tree.ErrTwoParents, 2},
		{"two parents later", "a\tb\nb\tc\n\n\nd\tc\t2\n", tree.ErrTwoParents, 5},
		{"duplicate edge", "a\tb\na\tb\t2\n", tree.ErrDuplicateEdge, 2},
		{"negative weight", "a\tb\t-1\n", tree.ErrBadWeight, 1},
		{"negative tiny", "a\tb\n a \t c \t -1e-300 \n", tree.ErrBadWeight, 2},
		// Below 2.2e-308: subnormal, or read as 0 though not zero.
		{"subnormal weight", "a\tb\t1e-310\n", tree.ErrBadWeight, 1},
		{"weight read as 0", "a\tb\t1\nb\tc\t1e-400\n", tree.ErrBadWeight, 2},
		{"weight read as 0, a mantissa below 1", "a\tb\t0.5e-330\n", tree.ErrBadWeight, 1},
		{"NaN weight", "a\tb\tNaN\n", tree.ErrBadWeight, 1},
		{"nan weight", "a\tb\t1\nb\tc\tnan\n", tree.ErrBadWeight, 2},
		{"Inf weight", "a\tb\tInf\n", tree.ErrBadWeight, 1},
		{"hex weight", "a\tb\t0x1p-2\n", tree.ErrBadWeight, 1},
		{"digit separator", "a\tb\t1_0\n", tree.ErrBadWeight, 1},
		{"+Inf weight", "a\tb\t+Inf\n", tree.ErrBadWeight, 1},
		{"-Inf weight", "a\tb\t-Inf\n", tree.ErrBadWeight, 1},
		{"infinity weight", "a\tb\tinfinity\n", tree.ErrBadWeight, 1},
		{"non-numeric weight", "a\tb\tone\n", tree.ErrBadWeight, 1},
		{"decimal comma", "a\tb\t1,5\n", tree.ErrBadWeight, 1},
		{"two numbers", "a\tb\t1 2\n", tree.ErrBadWeight, 1},
		{"out of range", "a\tb\t1e400\n", tree.ErrBadWeight, 1},
		{"extra column", "a\tb\t1\tx\n", tree.ErrSyntax, 1},
		{"extra columns", "a\tb\n\na\tc\t1\tx\ty\n", tree.ErrSyntax, 3},
		{"trailing tab", "a\tb\t1\t\n", tree.ErrSyntax, 1},
		{"empty field", "a\t\tb\n", tree.ErrSyntax, 1},
		{"blank field", "a\t  \t1\n", tree.ErrSyntax, 1},
		{"empty child", "a\t\n", tree.ErrSyntax, 1},
		{"empty parent", "x\n\ta\n", tree.ErrSyntax, 2},
		{"empty weight", "a\tb\t\n", tree.ErrSyntax, 1},
		{"comment name", "a\t#b\n", tree.ErrBadName, 1},
		{"CR in name", "a\tb\rc\n", tree.ErrBadName, 1},
		{"lone comment name", "a\tb\nb\t#\n", tree.ErrBadName, 2},
		// Files that are not text: a NUL byte, bytes that are not UTF-8
		// (binary data, or Latin-1 text), and control characters in names.
		{"NUL byte", "a\tb\n\x00\x01\x02PK\x03\x04\n", tree.ErrSyntax, 2},
		{"binary", "\x89PNG\r\n\x1a\n", tree.ErrSyntax, 1},
		{"Latin-1", "a\tb\nb\tcaf\xe9\n", tree.ErrSyntax, 2},
		{"invalid UTF-8 in a comment", "# \xff\na\tb\n", tree.ErrSyntax, 1},
		{"control character in name", "a\tb\x07c\n", tree.ErrBadName, 1},
		{"DEL in name", "a\x7f\tb\n", tree.ErrBadName, 1},
		// A line over the 1 MiB limit is reported at its own line.
		{"long line", "a\tb\n" + strings.Repeat("x", 1<<20+1) + "\n", tree.ErrSyntax, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if ok, v := testutil.Panics(func() { _, err = tree.Read(strings.NewReader(tc.text), "in.txt", nil) }); ok {
				t.Fatalf("panic: %v", v)
			}
			checkErr(t, err, tc.want, "in.txt", tc.line)
		})
	}
}

// TestReadFormat checks the accepted syntax: comments, blank lines, CRLF,
// spaces around fields, names with inner spaces, default weight 1, lone
// nodes, and the line terminator missing at the end of the file.
func TestReadFormat(t *testing.T) {
	text := "\ufeff# Figure 1 of the paper, with extra syntax (and a byte-order mark)\r\n" +
		"\n" +
		"animal\tmammal\r\n" +
		"  animal \t reptile \t 1 \n" +
		"\t# a comment too: its first non-blank character is '#'\n" +
		"mammal\tdog\t0.5\n" +
		"mammal\tcat\t2e0\n" +
		"reptile\tlizard\t0.25\n" +
		"sea turtle\n" +
		"reptile\tsea turtle\t3\n" +
		"reptile\tsnake" // no final newline
	tr, err := tree.Read(strings.NewReader(text), "fig1.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tree.FromParents(
		[]int{-1, 0, 0, 1, 1, 2, 2, 2},
		[]float64{0, 1, 1, 0.5, 2, 0.25, 3, 1},
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "sea turtle", "snake"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameUserOrder(t, tr, want)
}

// TestReadFile checks ReadFile on the Figure 1 file in testdata and on a
// missing file.
func TestReadFile(t *testing.T) {
	tr, err := tree.ReadFile("testdata/figure1.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}; !slices.Equal(tr.Names(), want) {
		t.Errorf("names %q, want %q", tr.Names(), want)
	}
	_, err = tree.ReadFile("testdata/no-such-file.txt", nil)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
	_, err = tree.ReadFile("testdata/cycle.txt", nil)
	checkErr(t, err, tree.ErrCycle, "testdata/cycle.txt", 4)
	// A directory is named as such, not read as a file whose line 1 fails.
	for name, read := range map[string]func(string, *tree.Options) (*tree.Tree, error){
		"ReadFile": tree.ReadFile, "ReadTaxonomyFile": tree.ReadTaxonomyFile,
	} {
		_, err = read("testdata", nil)
		if !errors.Is(err, syscall.EISDIR) || err.Error() != "testdata: is a directory, not a file" {
			t.Errorf("%s of a directory: %v", name, err)
		}
	}
}

// TestBlurbHierarchy reads the real BlurbGenreCollection-EN hierarchy. The
// expected counts are computed here from the file text, independently of
// package tree, and the paper's description (a forest of 7 roots joined under
// a virtual root; Humor and Poetry are roots without children) is checked.
func TestBlurbHierarchy(t *testing.T) {
	const path = "../../shared/data/blurb/hierarchy.txt"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("BlurbGenreCollection hierarchy not available: %v", err)
	}
	// Independent count: every TAB-separated field is a genre.
	genres := map[string]bool{}
	child := map[string]string{} // child → parent
	var edges [][2]string
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		f := strings.Split(line, "\t")
		for _, g := range f {
			genres[g] = true
		}
		if len(f) == 2 {
			child[f[1]] = f[0]
			edges = append(edges, [2]string{f[0], f[1]})
		}
	}
	var roots []string
	for g := range genres {
		if _, ok := child[g]; !ok {
			roots = append(roots, g)
		}
	}
	slices.Sort(roots)

	tr, err := tree.Read(bytes.NewReader(data), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != len(genres) || tr.Edges() != len(edges)+len(roots) {
		t.Errorf("Len %d, Edges %d; the file has %d genres, %d edges and %d roots",
			tr.Len(), tr.Edges(), len(genres), len(edges), len(roots))
	}
	if len(roots) != 7 || !tr.Virtual() || tr.Root() != -1 || tr.RootName() != tree.DefaultRootName {
		t.Errorf("%d roots %q, virtual %v, root %d %q; want 7 roots under a virtual root",
			len(roots), roots, tr.Virtual(), tr.Root(), tr.RootName())
	}
	var gotRoots []string
	for i := 0; i < tr.Len(); i++ {
		if tr.Parent(i) < 0 {
			gotRoots = append(gotRoots, tr.Name(i))
			if tr.Depth(i) != 1 || tr.Weight(i) != 1 {
				t.Errorf("root %q: depth %d weight %v, want 1, 1", tr.Name(i), tr.Depth(i), tr.Weight(i))
			}
		}
	}
	slices.Sort(gotRoots)
	if !slices.Equal(gotRoots, roots) {
		t.Errorf("roots %q, want %q", gotRoots, roots)
	}
	for _, e := range edges {
		p, _ := tr.Index(e[0])
		c, _ := tr.Index(e[1])
		if tr.Parent(c) != p || tr.Weight(c) != 1 {
			t.Errorf("edge %q → %q: parent %d weight %v", e[0], e[1], tr.Parent(c), tr.Weight(c))
		}
	}
	for _, lone := range []string{"Humor", "Poetry"} {
		i, ok := tr.Index(lone)
		if !ok || tr.Parent(i) != -1 || !tr.IsLeaf(i) || len(tr.Children(nil, i)) != 0 {
			t.Errorf("%q: found %v, want a root without children", lone, ok)
		}
	}
	// Two genres under different roots are joined through the virtual root.
	h, _ := tr.Index("Humor")
	p, _ := tr.Index("Poetry")
	if tr.Distance(h, p) != 2 || tr.LCA(h, p) != -1 {
		t.Errorf("d(Humor, Poetry) = %v, LCA %d; want 2, -1", tr.Distance(h, p), tr.LCA(h, p))
	}
	checkOrder(t, tr)
	u, err := tree.Read(strings.NewReader(tr.Format()), "formatted", nil)
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, u, tr)
}

// TestWriteRead checks that Write then Read gives back an equal tree, and
// that a second round trip reproduces the text exactly.
func TestWriteRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	var cases []*tree.Tree
	single, _ := tree.FromParents([]int{-1}, nil, []string{"only node"}, nil)
	cases = append(cases, single, tree.Chain(1), tree.Chain(5), tree.Star(1), tree.Star(6))
	for iter := 0; iter < 100; iter++ {
		n := 1 + rng.IntN(30)
		roots := 1
		if iter%2 == 1 {
			roots = 1 + rng.IntN(n)
		}
		parent := testutil.RandomParents(rng, n, roots)
		var weight []float64
		switch iter % 4 {
		case 1:
			weight = testutil.UniformWeights(rng, n)
		case 2:
			weight = testutil.DyadicWeights(rng, n)
		case 3:
			// Extreme but valid weights must survive the text form (valid:
			// path lengths must stay finite, so no weight near MaxFloat64).
			weight = make([]float64, n)
			for i := range weight {
				weight[i] = []float64{0, 0x1p-1022, 1e-300, 1.2345678901234567e300, 1.0 / 3}[rng.IntN(5)]
			}
		}
		tr, err := tree.FromParents(parent, weight, randomNames(rng, n), nil)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tr)
	}
	for _, tr := range cases {
		var buf bytes.Buffer
		if err := tr.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tr.Format() {
			t.Errorf("Write and Format differ:\n%q\n%q", buf.String(), tr.Format())
		}
		u, err := tree.Read(&buf, "written", nil)
		if err != nil {
			t.Fatalf("Read(Write(%v)): %v\n%s", tr, err, tr.Format())
		}
		sameTree(t, u, tr)
		v, err := tree.Read(strings.NewReader(u.Format()), "written twice", nil)
		if err != nil {
			t.Fatal(err)
		}
		if v.Format() != u.Format() {
			t.Errorf("second round trip changed the text:\n%q\n%q", u.Format(), v.Format())
		}
	}
}

// TestWriteError checks that Write reports the writer's error.
func TestWriteError(t *testing.T) {
	tr := tree.Random(3000, rand.NewPCG(1, 1)) // more than bufio's 4 KiB buffer
	if err := tr.Write(failWriter{}); !errors.Is(err, errWrite) {
		t.Errorf("Write = %v, want %v", err, errWrite)
	}
	if err := tree.Chain(1).Write(failWriter{}); !errors.Is(err, errWrite) {
		t.Errorf("single node: Write = %v, want %v", err, errWrite)
	}
}

var errWrite = errors.New("disk full")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

// FuzzRead checks that Read never panics, that every error is a *tree.Error
// wrapping a sentinel and naming the file, and that a tree it returns
// survives Write then Read unchanged. Seeds: testdata/fuzz/FuzzRead and the
// f.Add calls below.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"",
		"a\n",
		"a\tb\n",
		"a\tb\t2.5\nb\tc\n",
		"a\tb\nb\ta\n",
		"a\tb\nc\tb\n",
		"a\ta\n",
		"a\tb\na\tb\n",
		"a\tb\t-1\n",
		"a\tb\tNaN\n",
		"a\tb\t1e400\n",
		"a\tb\t1\tx\n",
		"a\t\tb\n",
		"# comment\n\n",
		"a\r\nb\r\n",
		"<root>\nx\n",
		" a \t b c \t 0x1p-3 \n",
		"a\t#b\n",
		"a\tb\rc\n",
		"\xff\xfe\ta\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := tree.Read(bytes.NewReader(data), "fuzz", nil)
		if err != nil {
			var te *tree.Error
			if !errors.As(err, &te) || te.File != "fuzz" || !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error %q (%T) is not a *tree.Error for file fuzz", err, err)
			}
			known := false
			for _, s := range sentinels {
				known = known || errors.Is(err, s)
			}
			if !known {
				t.Fatalf("error %q wraps no sentinel", err)
			}
			return
		}
		checkOrder(t, tr)
		text := tr.Format()
		u, err := tree.Read(strings.NewReader(text), "formatted", nil)
		if err != nil {
			t.Fatalf("Read(Format()) = %v\ninput %q\nformatted %q", err, data, text)
		}
		sameTree(t, u, tr)
	})
}

// TestReadPathOverflow checks that finite weights whose path lengths
// overflow float64 (2 × 1.79e308 between the two leaves) are refused with
// the file and the line of the edge that reaches farthest.
func TestReadPathOverflow(t *testing.T) {
	text := "a\tb\t1.7976931348623157e308\na\tc\t1.7976931348623157e308\n"
	_, err := tree.Read(strings.NewReader(text), "big.tree", nil)
	checkErr(t, err, tree.ErrBadWeight, "big.tree", 1)
	if _, err := tree.FromParents([]int{-1, 0}, []float64{0, math.MaxFloat64}, nil, nil); !errors.Is(err, tree.ErrBadWeight) {
		t.Errorf("FromParents: %v, want ErrBadWeight", err)
	}
}

// TestReadSpacedWarning checks the warning about lines with spaces and no
// TAB: given for an edge list separated by spaces and for a stray such line
// among edges, not for a name with spaces that has edges, and only through
// Options.Warn.
func TestReadSpacedWarning(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       string // "" for no warning
	}{
		{"all spaces", "# genres\nanimal mammal\nmammal cat\n", `f.tree:2: no line has a TAB: each of the 2 lines with spaces, such as "animal mammal", was read as the name of one node without edges`},
		{"one line, spaces", "animal mammal\n", `f.tree:1: no line has a TAB: the one line with spaces, "animal mammal", was read as the name of one node without edges; separate parent and child with a TAB`},
		{"one stray", "a\tb\nb c\nb\td\nd  e\n", `f.tree:2: "b c" has spaces but no TAB: it was read as the name of one node without edges (and 1 more such line); if it is an edge, separate parent and child with a TAB`},
		{"declared name with edges", "Science Fiction\nFiction\tScience Fiction\n", ""},
		{"names with spaces in edges", "Fiction\tScience Fiction\n", ""},
		{"lone root without spaces", "x\na\tb\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			opts := &tree.Options{Warn: func(msg string) { got = append(got, msg) }}
			if _, err := tree.Read(strings.NewReader(tc.text), "f.tree", opts); err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("warnings %q, want none", got)
			case tc.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tc.want)):
				t.Errorf("warnings %q, want one starting %q", got, tc.want)
			}
			// Without Warn, the same tree and no complaint.
			if _, err := tree.Read(strings.NewReader(tc.text), "f.tree", nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}
