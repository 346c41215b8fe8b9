package embedding

import "fmt"

// Mean sets dst, of length src.Dim(), to the mean of the vectors src has
// for words, a word counting as often as it is listed, and returns how
// many of the words had one. Words without a vector (Missing) are left
// out; when none has one, dst is zero. The sum is accumulated in float64.
// It is how a label name, a phrase or a document becomes one point: the
// mean of its words' vectors. It panics if len(dst) != src.Dim().
func Mean(dst []float64, src Source, words []string) int {
	if len(dst) != src.Dim() {
		panic(fmt.Sprintf("embedding: Mean with len(dst) = %d, Dim() = %d", len(dst), src.Dim()))
	}
	clear(dst)
	v := make([]float32, len(dst))
	found := 0
	for _, w := range words {
		if src.Lookup(v, w) == Missing {
			continue
		}
		found++
		for j, x := range v {
			dst[j] += float64(x)
		}
	}
	if found > 1 {
		for j := range dst {
			dst[j] /= float64(found)
		}
	}
	return found
}
