package tree

import (
	"math/rand/v2"
	"testing"
)

// TestPlainName: every name plainName accepts passes checkName's full
// tests, and plainName accepts the usual labels; checked on all strings of
// up to two bytes over an alphabet with every byte class and on random
// strings.
func TestPlainName(t *testing.T) {
	alpha := []byte{0, '\t', '\n', '\r', 0x0b, 0x1f, ' ', '#', 'a', '_', '~', 0x7f, 0x80, 0xc3, 0xa9, 0xff}
	try := func(s string) {
		if plainName(s) && checkNameSlow(s) != "" {
			t.Errorf("plainName(%q) but %s", s, checkNameSlow(s))
		}
	}
	try("")
	for _, a := range alpha {
		try(string([]byte{a}))
		for _, b := range alpha {
			try(string([]byte{a, b}))
			for _, c := range alpha {
				try(string([]byte{a, b, c}))
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		b := make([]byte, 1+rng.IntN(6))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		try(string(b))
	}
	for _, s := range []string{"OTU1", "t14353", "A_b", "Homo sapiens", "<node 12>", "g__Bacteroides;s__"} {
		if !plainName(s) {
			t.Errorf("plainName(%q) = false", s)
		}
	}
}
