package biom

import (
	"bytes"
	"fmt"
	"github.com/twl-ldl/twl/internal/race"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
)

// TestSameAsReference reads table.biom cut at every length and with bytes
// flipped through the file, with Parse (from memory, datasets read at
// once) and with the reference reader (through io.ReaderAt, one dataset
// after the other): both must give the same table or the same error.
func TestSameAsReference(t *testing.T) {
	full, err := readAll("../testdata/unifrac/table.biom")
	if err != nil {
		t.Fatal(err)
	}
	same := func(b []byte, what string) {
		t.Helper()
		got, gerr := Parse(b, "x.biom", nil)
		want, werr := refReadHDF5(bytes.NewReader(b), int64(len(b)), "x.biom", nil)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %v, %v\nreference %v, %v", what, got, gerr, want, werr)
		}
	}
	same(full, "whole")
	for n := 8; n < len(full); n += 1 + n/64 {
		same(full[:n], fmt.Sprintf("cut at %d", n))
	}
	step := 7
	if testing.Short() || race.Enabled {
		step = 61
	}
	for i := 8; i < len(full); i += step { // past the signature, which decides the format
		for _, x := range []byte{0xff, 0x01, 0x80} {
			b := bytes.Clone(full)
			b[i] ^= x
			same(b, fmt.Sprintf("byte %d ^ %#x", i, x))
		}
	}
}

// TestFirstRepeat compares firstRepeat with a search over all pairs on
// random lists of short ids, with and without repeats and empty ids.
func TestFirstRepeat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		n := rng.IntN(60)
		ids := make([]string, n)
		for i := range ids {
			ids[i] = strconv.Itoa(rng.IntN(4 * n))
			if rng.IntN(200) == 0 {
				ids[i] = ""
			}
		}
		wi, wj := -1, -1
	search:
		for i := range ids {
			if ids[i] == "" {
				wi = i
				break
			}
			for j := range i {
				if ids[j] == ids[i] {
					wi, wj = i, j
					break search
				}
			}
		}
		if i, j := firstRepeat(ids); i != wi || j != wj {
			t.Fatalf("firstRepeat(%q) = %d, %d, want %d, %d", ids, i, j, wi, wj)
		}
	}
}
