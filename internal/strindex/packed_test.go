package strindex

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// firstIndex is the reference for Packed.Get: a linear scan for the first
// string equal to b.
func firstIndex(strs []string, b []byte) (int, bool) {
	for i, s := range strs {
		if s == string(b) {
			return i, true
		}
	}
	return 0, false
}

// TestPacked checks Get against a Go map of the first position of each
// string, on lists with repeated and empty strings, and absent keys.
func TestPacked(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 5, 1000, 40_000} {
		strs := make([]string, n)
		for i := range strs {
			strs[i] = "n" + strconv.Itoa(i*7919%(n+1)/2)
		}
		if n == 5 {
			strs[3] = ""
		}
		if n == 1000 {
			// Longer strings that share their first eight bytes, and two
			// of more than 0xffff bytes that differ in their last.
			for i := range strs[:500] {
				strs[i] = "<node 12" + strs[i]
			}
			long := strings.Repeat("x", 70_000)
			strs[600], strs[601], strs[602] = long+"a", long+"b", long
		}
		want := map[string]int{}
		for i, s := range strs {
			if _, ok := want[s]; !ok {
				want[s] = i
			}
		}
		x := NewPacked(n, func(i int) string { return strs[i] })
		if x.Len() != n {
			t.Fatalf("n=%d: Len %d", n, x.Len())
		}
		for s, i := range want {
			if j, ok := x.Get([]byte(s)); !ok || j != i {
				t.Fatalf("n=%d: Get(%q) = %d, %v, want %d", n, s, j, ok, i)
			}
		}
		for i, s := range strs {
			if !x.Equal(i, []byte(s)) || x.Equal(i, []byte(s+"x")) {
				t.Fatalf("n=%d: Equal(%d) wrong for %q", n, i, s)
			}
		}
		for _, s := range []string{"", "m1", "n" + strconv.Itoa(n+5), "n-1", "<node 12", "<node 12n99999", strings.Repeat("x", 70_000) + "c"} {
			if _, ok := want[s]; ok {
				continue
			}
			if j, ok := x.Get([]byte(s)); ok {
				t.Fatalf("n=%d: absent %q found at %d", n, s, j)
			}
		}
	}
	var zero Packed
	if _, ok := zero.Get([]byte("a")); ok || zero.Len() != 0 {
		t.Fatal("the zero Packed finds a string")
	}
}

// FuzzPacked checks Get against a linear scan (firstIndex) on lists cut
// from the input at '\n', for every string of the list and for the key.
func FuzzPacked(f *testing.F) {
	f.Add([]byte("a\nb\na\n\nc"), []byte("b"))
	f.Add([]byte("t1\nt2\n<node 1>"), []byte("t3"))
	f.Add([]byte(""), []byte(""))
	f.Fuzz(func(t *testing.T, list, key []byte) {
		var strs []string
		for s := range bytes.SplitSeq(list, []byte("\n")) {
			strs = append(strs, string(s))
		}
		x := NewPacked(len(strs), func(i int) string { return strs[i] })
		for _, b := range append([][]byte{key}, bytes.Split(list, []byte("\n"))...) {
			i, ok := x.Get(b)
			wi, wok := firstIndex(strs, b)
			if ok != wok || i != wi {
				t.Fatalf("Get(%q) = %d, %v; linear scan %d, %v", b, i, ok, wi, wok)
			}
		}
	})
}

func BenchmarkPackedGet(b *testing.B) {
	const n = 100_000
	strs := make([]string, n)
	for i := range strs {
		strs[i] = "t" + strconv.Itoa(i)
	}
	x := NewPacked(n, func(i int) string { return strs[i] })
	keys := make([][]byte, 4096)
	for k := range keys {
		keys[k] = []byte(strs[(k*7919)%n])
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, k := range keys {
			if _, ok := x.Get(k); !ok {
				b.Fatal("not found")
			}
		}
	}
}
