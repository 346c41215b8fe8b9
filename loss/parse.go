package loss

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Term is the transport term of a loss: the distance added to KL.
type Term int

// The terms of the losses in this package.
const (
	TermNone     Term = iota // KL alone
	TermTW                   // the exact tree-Wasserstein distance (NewKLTW)
	TermSinkhorn             // the Wasserstein distance by Sinkhorn, the paper's W¹ (NewKLSinkhorn)
	TermTSW                  // the tree-sliced distance over several trees (NewKLTSW)
	TermUTW                  // the unbalanced tree-Wasserstein distance (NewKLUTW)
)

// String returns the term as loss names spell it: "tw", "sinkhorn", "tsw",
// "utw", or "" for TermNone.
func (t Term) String() string {
	switch t {
	case TermTW:
		return "tw"
	case TermSinkhorn:
		return "sinkhorn"
	case TermTSW:
		return "tsw"
	case TermUTW:
		return "utw"
	}
	return ""
}

// Name is a parsed loss name: KL + Lambda·Term.
type Name struct {
	Term Term
	// Lambda is the weight of Term: the number written in the name
	// (kl+0.5tw), 1 when none is written (kl+tw), 0 for KL alone.
	Lambda float64
	// Weighted reports whether the name wrote Lambda.
	Weighted bool
}

// Parse reads a loss name, in the one grammar every command and report
// uses:
//
//	kl                 KL alone
//	kl+TERM            KL + TERM, λ = 1
//	kl+λTERM           KL + λ·TERM, λ a positive decimal number (kl+0.5tw)
//
// with TERM one of tw, sinkhorn (also written w1, the paper's W¹), tsw and
// utw.
// Letter case matters: names are written in lower case.
func Parse(name string) (Name, error) {
	if name == "kl" {
		return Name{}, nil
	}
	rest, ok := strings.CutPrefix(name, "kl+")
	if !ok {
		return Name{}, fmt.Errorf("unknown loss %q: want kl, kl+tw, kl+sinkhorn, kl+tsw or kl+utw, with an optional weight (kl+0.5tw)", name)
	}
	n := Name{Lambda: 1}
	w := ""
	for _, t := range []struct {
		spelled string
		term    Term
	}{{"sinkhorn", TermSinkhorn}, {"tsw", TermTSW}, {"utw", TermUTW}, {"tw", TermTW}, {"w1", TermSinkhorn}} {
		if before, ok := strings.CutSuffix(rest, t.spelled); ok {
			n.Term, w = t.term, before
			break
		}
	}
	if n.Term == TermNone {
		return Name{}, fmt.Errorf("unknown loss %q: want kl+tw, kl+sinkhorn, kl+tsw or kl+utw, with an optional weight (kl+0.5tw)", name)
	}
	if w != "" {
		lambda, err := strconv.ParseFloat(w, 64)
		if err != nil || strings.ContainsAny(w, "_xXpP") || w[0] == '+' || w[0] == '-' || !(lambda > 0) || math.IsInf(lambda, 0) {
			return Name{}, fmt.Errorf("unknown loss %q: the weight %q is not a positive decimal number", name, w)
		}
		n.Lambda, n.Weighted = lambda, true
	}
	return n, nil
}

// String returns the name in Parse's grammar: "kl", "kl+tw", "kl+0.5tw",
// with λ written only when the name was Weighted (the shortest decimal
// that reads back to it) and Sinkhorn written "sinkhorn".
func (n Name) String() string {
	if n.Term == TermNone {
		return "kl"
	}
	if !n.Weighted {
		return "kl+" + n.Term.String()
	}
	return "kl+" + strconv.FormatFloat(n.Lambda, 'g', -1, 64) + n.Term.String()
}
