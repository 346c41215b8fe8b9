package embedding

// ngrams calls yield(h, i, j) for each character n-gram of w = "<"+word+">"
// of minn to maxn characters, in the order of fastText's
// Dictionary::computeSubwords: by start i, then by length. The n-gram is
// w[i:j], a run of whole UTF-8 sequences (a byte 10xxxxxx never starts a
// character: it stays with the byte before it, so the characters of a word
// that is not valid UTF-8 are cut as fastText cuts them); the n-grams "<"
// and ">" of one character alone are left out. h is hash(w[i:j]). The
// padded word is never built, so ngrams allocates nothing.
func ngrams[S string | []byte](word S, minn, maxn int, yield func(h uint32, i, j int)) {
	n := len(word) + 2
	at := func(k int) byte {
		switch k {
		case 0:
			return '<'
		case n - 1:
			return '>'
		}
		return word[k-1]
	}
	for i := range n {
		if at(i)&0xC0 == 0x80 {
			continue
		}
		h := uint32(fnvOffset)
		j := i
		for length := 1; j < n && length <= maxn; length++ {
			h = fnvStep(h, at(j))
			j++
			for j < n && at(j)&0xC0 == 0x80 {
				h = fnvStep(h, at(j))
				j++
			}
			if length >= minn && !(length == 1 && (i == 0 || j == n)) {
				yield(h, i, j)
			}
		}
	}
}

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// fnvStep is one step of fastText's 32-bit FNV-1a hash, in which the byte
// is a signed char, sign-extended before the xor: bytes ≥ 0x80 flip the
// upper 24 bits too.
func fnvStep(h uint32, c byte) uint32 {
	return (h ^ uint32(int8(c))) * fnvPrime
}

// hash is fastText's Dictionary::hash of s.
func hash[S string | []byte](s S) uint32 {
	h := uint32(fnvOffset)
	for i := 0; i < len(s); i++ {
		h = fnvStep(h, s[i])
	}
	return h
}

// Hash is fastText's 32-bit FNV-1a hash of s (each byte sign-extended from
// int8 before the xor, as fastText's Dictionary::hash does): the hash that
// places character n-grams in the buckets of a fastText model.
func Hash[S string | []byte](s S) uint32 { return hash(s) }

// Ngrams calls yield(h) with the hash (Hash) of each character n-gram of
// "<"+word+">" of minn to maxn characters, in fastText's order (by start,
// then by length), "<" and ">" alone left out, a UTF-8 character never cut.
// It allocates nothing.
func Ngrams[S string | []byte](word S, minn, maxn int, yield func(h uint32)) {
	ngrams(word, minn, maxn, func(h uint32, _, _ int) { yield(h) })
}
