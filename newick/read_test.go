package newick

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// edges lists a tree's edges as "parent child weight" lines sorted as the
// tree writes them (breadth-first).
func edges(t *testing.T, tr *tree.Tree) string {
	t.Helper()
	return strings.ReplaceAll(strings.TrimSpace(tr.Format()), "\t", " ")
}

// TestRead checks trees whose edges were written out by hand from the
// Newick text.
func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		opts     *Options
		want     string // edges, one per line
	}{
		{"binary", "((A:1,B:2)AB:0.5,C:3);", nil,
			"<node 1> AB 0.5\n<node 1> C 3\nAB A 1\nAB B 2"},
		{"float syntaxes", "((A:1e-3,B:.5):1E+2,C:2.);", nil,
			"<node 1> <node 2> 100\n<node 1> C 2\n<node 2> A 0.001\n<node 2> B 0.5"},
		{"missing lengths are 0", "((A,B:2),C);", nil,
			"<node 1> <node 2> 0\n<node 1> C 0\n<node 2> A 0\n<node 2> B 2"},
		{"trifurcating root, root length ignored", "(A:1,B:2,C:3)R:9;", nil,
			"R A 1\nR B 2\nR C 3"},
		{"support values", "((A:1,B:2)95:1,(C:1,D:1)0.5:1)100;", nil,
			"<node 1> <node 2> 1\n<node 1> <node 5> 1\n<node 2> A 1\n<node 2> B 2\n<node 5> C 1\n<node 5> D 1"},
		{"quoted labels", "(('A_b':1,'it''s (x)':2)'0.9':1,'[c]':3);", nil,
			"<node 1> 0.9 1\n<node 1> [c] 3\n0.9 A_b 1\n0.9 it's (x) 2"},
		{"underscores kept", "(A_b:1,C_D:2);", nil, "<node 1> A_b 1\n<node 1> C_D 2"},
		{"underscores to spaces", "(A_b:1,'C_D':2);", &Options{Underscores: true}, "<node 1> A b 1\n<node 1> C_D 2"},
		{"comments and blanks", "[head] ( A [x [nested]] : 1 ,\n\tB b:[y]2 ) [z];\n", nil,
			"<node 1> A 1\n<node 1> B b 2"},
		{"duplicate internal labels", "((A:1,B:1)x:1,(C:1,D:1)x:1)y;", nil,
			"y <node 2> 1\ny <node 5> 1\n<node 2> A 1\n<node 2> B 1\n<node 5> C 1\n<node 5> D 1"},
		{"generated name taken", "((A:1,B:1):1,'<node 2>':1);", nil,
			"<node 1> <node 2>#2 1\n<node 1> <node 2> 1\n<node 2>#2 A 1\n<node 2>#2 B 1"},
		{"single child and zero length", "((A:0):1,B:1);", nil,
			"<node 1> <node 2> 1\n<node 1> B 1\n<node 2> A 0"},
		{"numeric tips", "(1001:1,1002:2);", nil, "<node 1> 1001 1\n<node 1> 1002 2"},
		{"byte-order mark, -0", "\ufeff(A:-0,B:1);", nil, "<node 1> A 0\n<node 1> B 1"},
		{"unnamed tips", "(,A:1);", nil, "<node 1> <node 2> 0\n<node 1> A 1"},
		{"zeros with exponents, the smallest normal length", "(A:0e-400,B:-0.000E5,C:2.2250738585072014e-308);", nil,
			"<node 1> A 0\n<node 1> B 0\n<node 1> C 2.2250738585072014e-308"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := Parse([]byte(tc.in), "t.nwk", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := edges(t, tr); got != tc.want {
				t.Errorf("edges\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestSingleNode(t *testing.T) {
	tr, err := Parse([]byte("A;"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 1 || tr.Name(0) != "A" {
		t.Errorf("got %v", tr)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		in       string
		sentinel error
		want     string
	}{
		{"", ErrEmpty, "t.nwk: no tree: the input holds no Newick tree"},
		{"  [only a comment]\n", ErrEmpty, ""},
		{"(A,B)", ErrSyntax, "t.nwk:1: newick syntax error: at byte 5: the tree does not end with ';'"},
		{"((A,B);", ErrSyntax, "t.nwk:1: newick syntax error: at byte 6: ';' before the ')' that closes the '(' at byte 0"},
		{"(A,\n(B", ErrSyntax, "t.nwk:2: newick syntax error: at byte 4: '(' is never closed by ')'"},
		{"(A,B));", ErrSyntax, "t.nwk:1: newick syntax error: at byte 5: ')' outside parentheses"},
		{"(A,B);(C,D);", ErrSyntax, "t.nwk:1: newick syntax error: at byte 6: text after the ';' that ends the tree (only one tree is read)"},
		{"(A,'B);", ErrSyntax, "t.nwk:1: newick syntax error: at byte 3: quoted label is never closed by '"},
		{"(A[x,B);", ErrSyntax, "t.nwk:1: newick syntax error: at byte 2: comment '[' is never closed by ']'"},
		{"(A],B);", ErrSyntax, "t.nwk:1: newick syntax error: at byte 2: ']' closes no comment"},
		{"(A,B)(C);", ErrSyntax, "t.nwk:1: newick syntax error: at byte 5: '(' after a node: a ',' is missing"},
		{"('A'b,C);", ErrSyntax, "t.nwk:1: newick syntax error: at byte 4: unexpected 'b' after a label or branch length"},
		{"(A:-1,B);", ErrBadLength, "t.nwk:1: invalid branch length: at byte 3: branch length -1 is negative"},
		{"(A:x,B);", ErrBadLength, "t.nwk:1: invalid branch length: at byte 3: branch length \"x\" is not a decimal number"},
		{"(A:NaN,B);", ErrBadLength, ""},
		{"(A:inf,B);", ErrBadLength, ""},
		{"(A:0x1p3,B);", ErrBadLength, ""},
		{"(A:,B);", ErrBadLength, "t.nwk:1: invalid branch length: at byte 3: ':' is not followed by a branch length"},
		{"(A:1e400,B);", ErrBadLength, ""},
		// Below 2.2e-308: subnormal (1e-310), or read as 0 though not
		// zero (1e-400, 0.1e-330, -1e-400).
		{"(A:1e-310,B);", ErrBadLength, "t.nwk:1: invalid branch length: at byte 3: branch length 1e-310 is below 2.2e-308, the smallest normal float64: too small to compute with in full precision (scale the lengths up)"},
		{"(A:1e-400,B);", ErrBadLength, "t.nwk:1: invalid branch length: at byte 3: branch length 1e-400 is below 2.2e-308, the smallest normal float64: too small to compute with in full precision (scale the lengths up)"},
		{"(A:1,B:0.1e-330);", ErrBadLength, "t.nwk:1: invalid branch length: at byte 7: branch length 0.1e-330 is below 2.2e-308, the smallest normal float64: too small to compute with in full precision (scale the lengths up)"},
		{"(A:-1e-400,B);", ErrBadLength, ""},
		{"(A:1e308,(B:1e308)C:1e308);", ErrBadLength, ""},
		{"(A:1,\n(B:1,A:2));", ErrBadName, "t.nwk:2: invalid tip label: at byte 11: tip \"A\" already appears at byte 1"},
		{"('#A':1,B);", ErrBadName, "t.nwk:1: invalid tip label: at byte 1: name \"#A\" starts with '#', which marks a comment"},
		{"('a\tb',B);", ErrBadName, ""},
		// The first bad tip in the text is reported, whether it repeats a
		// label or is invalid, with and without internal labels.
		{"((A:1,B:1)X:1,\n(C:1,A:2));", ErrBadName, "t.nwk:2: invalid tip label: at byte 20: tip \"A\" already appears at byte 2"},
		{"((A,B)0.9,A);", ErrBadName, "t.nwk:1: invalid tip label: at byte 10: tip \"A\" already appears at byte 2"},
		{"(A,(B,A),'#C');", ErrBadName, "t.nwk:1: invalid tip label: at byte 6: tip \"A\" already appears at byte 1"},
		{"('#C',(B,A),A);", ErrBadName, "t.nwk:1: invalid tip label: at byte 1: name \"#C\" starts with '#', which marks a comment"},
		{"(('#C',B)X,A,A);", ErrBadName, "t.nwk:1: invalid tip label: at byte 2: name \"#C\" starts with '#', which marks a comment"},
		{"('it''s',(B,'it''s'));", ErrBadName, "t.nwk:1: invalid tip label: at byte 12: tip \"it's\" already appears at byte 1"},
	} {
		_, err := Parse([]byte(tc.in), "t.nwk", nil)
		if !errors.Is(err, tc.sentinel) {
			t.Errorf("%q: error %v, want %v", tc.in, err, tc.sentinel)
			continue
		}
		if tc.want != "" && err.Error() != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.in, err, tc.want)
		}
	}
}

// TestDeep reads a caterpillar a million levels deep and a star with a
// million tips: the parser needs no recursion.
func TestDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("large trees")
	}
	const n = 1_000_000
	var b bytes.Buffer
	b.WriteString(strings.Repeat("(", n))
	b.WriteString("T0:1")
	for i := 1; i <= n; i++ {
		b.WriteString(",x")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(":1):1")
	}
	b.WriteString(";")
	tr, err := Parse(b.Bytes(), "deep.nwk", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tr.Len(), 2*n+1; got != want {
		t.Fatalf("%d nodes, want %d", got, want)
	}
	i, _ := tr.Index("T0")
	if d := tr.Depth(i); d != n {
		t.Errorf("depth of T0 is %d, want %d", d, n)
	}
}

// TestQZA reads the tree of a QIIME 2 artifact built here as a zip file
// with the artifact layout (UUID/metadata.yaml, UUID/data/tree.nwk).
func TestQZA(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"0d2a-uuid/metadata.yaml": "uuid: 0d2a-uuid\ntype: Phylogeny[Rooted]\nformat: NewickDirectoryFormat\n",
		"0d2a-uuid/data/tree.nwk": "((A:1,B:2):1,C:3);\n",
	} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	zw.Close()
	tr, err := Read(&buf, "tree.qza", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := edges(t, tr), "<node 1> <node 2> 1\n<node 1> C 3\n<node 2> A 1\n<node 2> B 2"; got != want {
		t.Errorf("edges\n%s\nwant\n%s", got, want)
	}
	_, err = Read(bytes.NewReader(buf.Bytes()[:40]), "cut.qza", nil)
	if !errors.Is(err, ErrSyntax) {
		t.Errorf("cut artifact: %v", err)
	}
}

// TestTestdata reads the tree under testdata that the BIOM tables of
// package biom go with, and its QIIME 2 artifact (see testdata/README.md).
func TestTestdata(t *testing.T) {
	for _, path := range []string{"../testdata/unifrac/tree.nwk", "../testdata/unifrac/tree.qza"} {
		if _, err := os.Stat(path); err != nil {
			t.Skip(err)
		}
		tr, err := ReadFile(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		var tips []string
		for i := range tr.Len() {
			if tr.IsLeaf(i) {
				tips = append(tips, tr.Name(i))
			}
		}
		if got, want := strings.Join(tips, ","), "O1,O2,O_3,O 4,O5"; got != want {
			t.Errorf("%s: tips %s, want %s", path, got, want)
		}
	}
}
