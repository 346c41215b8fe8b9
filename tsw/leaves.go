package tsw

import (
	"fmt"

	"github.com/twl-ldl/twl/tree"
)

// Leaves returns the names of the leaves of t, in its user order.
func Leaves(t *tree.Tree) []string {
	var names []string
	for i := range t.Len() {
		if t.IsLeaf(i) {
			names = append(names, t.Name(i))
		}
	}
	return names
}

// NewOverLeaves returns the tree-sliced distance over the leaves of trees,
// which must be the same names in every tree: the points are the leaves of
// trees[0], in its user order. It also returns a flat tree of those points
// (a forest of lone roots, in the same order), over which distributions
// of the points can be read (package labeldist) and indexed as the Sliced
// takes them. sources names the trees in messages (their files), one per
// tree; a leaf of one tree that is no leaf of another is an error naming
// both. It panics if trees is empty or len(sources) != len(trees).
func NewOverLeaves(trees []*tree.Tree, sources []string) (*tree.Tree, *Sliced, error) {
	if len(trees) == 0 || len(sources) != len(trees) {
		panic("tsw: NewOverLeaves with no trees, or len(sources) != len(trees)")
	}
	names := Leaves(trees[0])
	leaf := make(map[string]bool, len(names))
	for _, name := range names {
		leaf[name] = true
	}
	differ := func(name string, in, notIn int) error {
		return fmt.Errorf("%q is a leaf of %s but not of %s: the trees must have the same leaves (the labels)", name, sources[in], sources[notIn])
	}
	for k, t := range trees[1:] {
		for _, name := range names {
			if i, ok := t.Index(name); !ok || !t.IsLeaf(i) {
				return nil, nil, differ(name, 0, k+1)
			}
		}
		for _, name := range Leaves(t) {
			if !leaf[name] {
				return nil, nil, differ(name, k+1, 0)
			}
		}
	}
	sl, err := New(trees, names)
	if err != nil {
		return nil, nil, err
	}
	parent := make([]int, len(names))
	for i := range parent {
		parent[i] = -1
	}
	flat, err := tree.FromParents(parent, nil, names, nil)
	if err != nil {
		return nil, nil, err
	}
	return flat, sl, nil
}
