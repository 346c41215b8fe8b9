package strindex

import (
	"strconv"
	"testing"
)

// TestIndex checks the index against a Go map built from the
// same names: every name found at its index, absent names not found, and
// a repeated name reported with the index of its first node.
func TestIndex(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 1000, 40_000} {
		names := make([]string, n)
		for i := range names {
			names[i] = "n" + strconv.Itoa(i*7919%(n+1))
		}
		want := map[string]int{}
		x := Make(names)
		for i, s := range names {
			j, dup := x.Add(i)
			wj, wdup := want[s]
			if dup != wdup || (dup && j != wj) {
				t.Fatalf("n=%d: add(%d) %q = %d, %v; map %d, %v", n, i, s, j, dup, wj, wdup)
			}
			if !wdup {
				want[s] = i
			}
		}
		for s, i := range want {
			if j, ok := x.Get(s); !ok || j != i {
				t.Fatalf("n=%d: get(%q) = %d, %v, want %d", n, s, j, ok, i)
			}
		}
		for _, s := range []string{"", "m1", "n" + strconv.Itoa(n+5), "n-1"} {
			if _, ok := want[s]; ok {
				continue
			}
			if j, ok := x.Get(s); ok {
				t.Fatalf("n=%d: absent %q found at %d", n, s, j)
			}
		}
	}
	var empty Index
	if _, ok := empty.Get("a"); ok {
		t.Fatal("empty index finds a name")
	}
	// Repeated names: the first node's index, as tree.FromParents reports it.
	x := Make([]string{"a", "b", "a", "b", "b"})
	for i, want := range []int{-1, -1, 0, 1, 1} {
		j, dup := x.Add(i)
		if (want < 0) == dup || (dup && j != want) {
			t.Fatalf("add(%d) = %d, %v, want %d", i, j, dup, want)
		}
	}
}
