package unifrac

import (
	"math"

	"github.com/twl-ldl/twl/tree"
)

// reference computes the N×N matrix from the definitions, as Striped
// UniFrac (ssu, unifrac-binaries) writes them branch by branch: for each
// pair and each branch of the tree (the root has none), the counts below
// the branch c, d, the masses a, b (proportions c/C, d/D, or the counts
// with raw) and with variance adjustment the divisor √(m_e (m − m_e)),
// m_e = c + d, m = C + D, a branch with a zero divisor adding nothing.
// With bypass, the tree is first pruned to the listed nodes and their
// ancestors and its chains of nodes with one child are merged, as ssu's
// shear and collapse do, and the branches of the merged tree's leaves are
// left out. It shares no code with the engine.
func reference(tr *tree.Tree, tab *Table, m Method, o Options) []float64 {
	L, n := tr.Len(), tab.Len()
	count := make([][]float64, n)
	mass := make([][]float64, n)
	total := make([]float64, n)
	for s := range n {
		c := make([]float64, L)
		for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
			total[s] += tab.Values[k]
			for v := int(tab.Indices[k]); v >= 0; v = tr.Parent(v) {
				c[v] += tab.Values[k]
			}
		}
		a := make([]float64, L)
		for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
			p := tab.Values[k]
			if !o.Raw {
				p /= total[s]
			}
			for v := int(tab.Indices[k]); v >= 0; v = tr.Parent(v) {
				a[v] += p
			}
		}
		count[s], mass[s] = c, a
	}
	length := make([]float64, L)
	for v := range L {
		if tr.Parent(v) >= 0 {
			length[v] = tr.Weight(v)
		}
	}
	if o.BypassTips {
		for _, v := range collapsedLeaves(tr, tab) {
			length[v] = 0
		}
	}
	d := make([]float64, n*n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			var num, den float64
			for v := range L {
				w := length[v]
				if count[i][v] == 0 && count[j][v] == 0 {
					continue // a branch neither reaches adds nothing
				}
				a, b := mass[i][v], mass[j][v]
				r := 1.0
				if o.VarianceAdjusted {
					mi := count[i][v] + count[j][v]
					r = math.Sqrt(mi * (total[i] + total[j] - mi))
					if !(r > 0) {
						continue
					}
				}
				switch m {
				case WeightedUnnormalized:
					num += w * math.Abs(a-b) / r
				case WeightedNormalized:
					num += w * math.Abs(a-b) / r
					den += w * (a + b) / r
				case Unweighted, UnweightedUnnormalized:
					if (a > 0) != (b > 0) {
						num += w / r
					}
					if a > 0 || b > 0 {
						den += w / r
					}
				case Generalized:
					if a+b > 0 {
						p := w * math.Pow((a+b)/r, o.Alpha)
						num += p * math.Abs(a-b) / (a + b)
						den += p
					}
				}
			}
			if m != WeightedUnnormalized && m != UnweightedUnnormalized {
				num /= den
			}
			d[i*n+j], d[j*n+i] = num, num
		}
	}
	return d
}

// collapsedLeaves returns the nodes whose branches ssu's -f leaves out:
// the tree is pruned to the nodes that tab lists (an entry in a row, or
// in Listed) and their ancestors; a node other than the root whose chain
// of only children (in the pruned tree) ends at a leaf of it is part of
// that leaf's merged branch.
func collapsedLeaves(tr *tree.Tree, tab *Table) []int {
	L := tr.Len()
	kept := make([]bool, L)
	mark := func(v int) {
		for ; v >= 0 && !kept[v]; v = tr.Parent(v) {
			kept[v] = true
		}
	}
	for _, i := range tab.Indices {
		mark(int(i))
	}
	for _, i := range tab.Listed {
		mark(int(i))
	}
	kids := make([][]int, L)
	for v := range L {
		if p := tr.Parent(v); p >= 0 && kept[v] {
			kids[p] = append(kids[p], v)
		}
	}
	var out []int
	for v := range L {
		if !kept[v] || tr.Parent(v) < 0 {
			continue
		}
		x := v
		for len(kids[x]) == 1 {
			x = kids[x][0]
		}
		if len(kids[x]) == 0 {
			out = append(out, v)
		}
	}
	return out
}

// referenceFaith returns each sample's Faith PD from the definition: the
// set of branches on the root paths of its nodes with a positive count,
// their lengths added up.
func referenceFaith(tr *tree.Tree, tab *Table) []float64 {
	pd := make([]float64, tab.Len())
	for s := range tab.Len() {
		seen := map[int]bool{}
		for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
			if tab.Values[k] <= 0 {
				continue
			}
			for v := int(tab.Indices[k]); tr.Parent(v) >= 0 && !seen[v]; v = tr.Parent(v) {
				seen[v] = true
				pd[s] += tr.Weight(v)
			}
		}
	}
	return pd
}
