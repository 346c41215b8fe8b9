package newick

import (
	"errors"
	"testing"
)

// fuzzSeeds are the inputs of TestRead and TestErrors and a few more shapes.
var fuzzSeeds = []string{
	"((A:1,B:2)AB:0.5,C:3);", "((A:1e-3,B:.5):1E+2,C:2.);", "((A,B:2),C);",
	"(A:1,B:2,C:3)R:9;", "((A:1,B:2)95:1,(C:1,D:1)0.5:1)100;",
	"(('A_b':1,'it''s (x)':2)'0.9':1,'[c]':3);", "[head] ( A [x [nested]] : 1 ,\n\tB b:[y]2 ) [z];\n",
	"((A:1,B:1):1,'<node 2>':1);", "(,A:1);", "A;", "(A,B)", "((A,B);", "(A:-1,B);",
	"(A:1,(B:1,A:2));", "('#A':1,B);", "\ufeff(A:-0,B:1);", "(((((A)))));",
}

// FuzzParse checks that Parse never panics, that every error is an *Error
// wrapping one of the package's sentinels, and that an accepted tree has
// one node per '(' plus one per tip and valid names. Seeds: the inputs of
// TestRead and TestErrors and a few more shapes.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, b []byte, underscores bool) {
		tr, err := Parse(b, "fuzz.nwk", &Options{Underscores: underscores})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrBadLength) && !errors.Is(err, ErrBadName) && !errors.Is(err, ErrEmpty) {
				t.Fatalf("error %v wraps no sentinel of the package", err)
			}
			return
		}
		if tr.Len() == 0 {
			t.Fatal("empty tree accepted")
		}
		for i := range tr.Len() {
			if w := tr.Weight(i); w < 0 || w != w {
				t.Fatalf("node %q has weight %v", tr.Name(i), w)
			}
		}
	})
}
