package tree

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/twl-ldl/twl/internal/strindex"
	"github.com/twl-ldl/twl/internal/underflow"
)

// DefaultRootName is the base of the virtual root's display name.
const DefaultRootName = "<root>"

// Options controls how a tree is assembled. The zero value is ready to use.
type Options struct {
	// VirtualRootWeight is the weight of the edge joining each root of a
	// forest to the virtual root. Zero means 1, the paper's choice. It must
	// be finite and non-negative; to join a forest at (almost) no cost use a
	// tiny positive weight.
	VirtualRootWeight float64

	// VirtualRootName is the display name of the virtual root. Empty means
	// DefaultRootName. If the name is taken by a real node, a suffix "#2",
	// "#3", ... is appended until it is free.
	VirtualRootName string

	// Warn, when not nil, receives what Read finds valid but probably
	// not meant, as one message "FILE:LINE: ..." per file: lines with
	// spaces and no TAB, each read as the name of a node without edges
	// (an edge list separated by spaces). Nil means no warnings.
	Warn func(msg string)

	// MaxBytes, when positive, bounds the memory that reading a tree may
	// take: a file larger than it is not read, and a text whose bytes and
	// nodes would pass it is not parsed (NodeBytes a node for an edge list
	// or a generated tree, nodes counted as two a line; TaxonomyNodeBytes
	// for a taxonomy, nodes counted as one a field). Both are errors
	// wrapping ErrTooLarge.
	MaxBytes int64
}

// NodeBytes bounds what reading an edge list, or making chain:N and
// star:N, takes per node beside the text: the builder's names, index,
// parents and weights, and the tree built (measured: 113 bytes a node for
// an edge list of 2²⁰ nodes, 135 for Star(2²⁰), allocations included).
const NodeBytes = 150

// TaxonomyNodeBytes is NodeBytes for a taxonomy, which maps parents and
// top-level labels to their lines as well (measured: 283 bytes a node for
// a taxonomy of 2²⁰ nodes).
const TaxonomyNodeBytes = 300

func (o *Options) maxBytes() int64 {
	if o == nil || o.MaxBytes <= 0 {
		return 0
	}
	return o.MaxBytes
}

func (o *Options) virtualWeight() float64 {
	if o == nil || o.VirtualRootWeight == 0 {
		return 1
	}
	return o.VirtualRootWeight
}

func (o *Options) rootName() string {
	if o == nil || o.VirtualRootName == "" {
		return DefaultRootName
	}
	return o.VirtualRootName
}

// Tree is an immutable rooted tree with named nodes and non-negative edge
// weights. See the package documentation for its node orders.
type Tree struct {
	// Internal order: breadth-first, position 0 is the root.
	parent   []int32   // parent position; -1 at the root
	weight   []float64 // weight of the edge to the parent; 0 at the root
	first    []int32   // children of k occupy positions [first[k], first[k+1])
	pre      []int32   // depth-first preorder number of k
	preEnd   []int32   // subtree of k has preorder numbers [pre[k], preEnd[k])
	head     []int32   // top of k's heavy path (heavy child: largest subtree)
	depth    []int32   // number of edges from the root
	rootDist []float64 // weighted distance from the root
	label    []int32   // user index of position k; -1 for the virtual root

	pos      []int32 // internal position of user node i
	names    []string
	index    strindex.Index
	rootName string
	virtual  bool
	identity bool
}

// Len returns the number of labels (user nodes). The virtual root of a forest
// is not counted.
func (t *Tree) Len() int { return len(t.names) }

// Virtual reports whether the tree was a forest joined under a virtual root.
func (t *Tree) Virtual() bool { return t.virtual }

// Root returns the user index of the root, or -1 if the root is virtual.
func (t *Tree) Root() int { return int(t.label[0]) }

// RootName returns the name of the root: a real node's name, or the display
// name of the virtual root.
func (t *Tree) RootName() string { return t.rootName }

// Name returns the name of user node i.
func (t *Tree) Name(i int) string { return t.names[i] }

// Names returns a copy of the node names in user order.
func (t *Tree) Names() []string { return append([]string(nil), t.names...) }

// Index returns the user index of the node with the given name.
func (t *Tree) Index(name string) (int, bool) {
	return t.index.Get(name)
}

// Parent returns the user index of i's parent, or -1 if i is the root or a
// root of a forest joined under the virtual root.
func (t *Tree) Parent(i int) int {
	p := t.parent[t.pos[i]]
	if p < 0 {
		return -1
	}
	return int(t.label[p])
}

// Weight returns the weight of the edge above user node i: 0 for the root,
// Options.VirtualRootWeight for a root of a forest.
func (t *Tree) Weight(i int) float64 { return t.weight[t.pos[i]] }

// Depth returns the number of edges between user node i and the root. In a
// forest the virtual root counts, so the forest's roots have depth 1.
func (t *Tree) Depth(i int) int { return int(t.depth[t.pos[i]]) }

// RootDistance returns the weighted distance from the root to user node i.
func (t *Tree) RootDistance(i int) float64 { return t.rootDist[t.pos[i]] }

// InSubtree reports whether v lies in the subtree Γ(u) rooted at u
// (u itself included). It is O(1).
func (t *Tree) InSubtree(v, u int) bool {
	pu, pv := t.pos[u], t.pos[v]
	return t.pre[pu] <= t.pre[pv] && t.pre[pv] < t.preEnd[pu]
}

// SubtreeSize returns |Γ(i)|, the number of nodes in the subtree rooted at i.
func (t *Tree) SubtreeSize(i int) int {
	p := t.pos[i]
	return int(t.preEnd[p] - t.pre[p])
}

// IsLeaf reports whether user node i has no children.
func (t *Tree) IsLeaf(i int) bool { return t.SubtreeSize(i) == 1 }

// Children appends the user indices of i's children to dst, in user order,
// and returns the extended slice.
func (t *Tree) Children(dst []int, i int) []int {
	p := t.pos[i]
	for _, l := range t.label[t.first[p]:t.first[p+1]] {
		dst = append(dst, int(l))
	}
	return dst
}

// Edges returns the number of edges: Len()-1, or Len() for a forest joined
// under a virtual root.
func (t *Tree) Edges() int { return len(t.parent) - 1 }

// Order is a read-only view of the tree's internal order, for algorithms that
// sweep the tree (see package tw). Its slices are shared with the Tree and
// must not be modified.
type Order struct {
	// Parent[k] is the position of k's parent, with Parent[k] < k for every
	// k ≥ 1, and Parent[0] = -1. Positions are breadth-first: Parent is
	// non-decreasing, and the children of a node are contiguous.
	Parent []int32
	// Weight[k] is the weight of the edge (Parent[k], k); Weight[0] = 0.
	Weight []float64
	// Label[k] is the user index of the node at position k, or -1 for the
	// virtual root.
	Label []int32
	// Position[i] is the position of user node i.
	Position []int32
	// Identity reports that the user order is the internal order: Label[k]
	// == k for every k, or, below a virtual root, Label[k] == k−1 for every
	// k ≥ 1. Vectors in user order then need no permutation.
	Identity bool
	// Virtual reports that position 0 is a virtual root.
	Virtual bool

	// Pre[k] is the depth-first preorder number of position k (children
	// in user order), and the subtree of k holds exactly the positions
	// whose preorder numbers lie in [Pre[k], PreEnd[k]). Pre[0] = 0.
	Pre, PreEnd []int32
	// RootDist[k] is the weighted distance from the root to position k.
	RootDist []float64

	t *Tree
}

// LCA returns the position of the lowest common ancestor of positions u and
// v (the virtual root is position 0). It takes O(log L) time.
func (o Order) LCA(u, v int32) int32 { return o.t.lca(u, v) }

// Order returns the internal order. See the Order type.
func (t *Tree) Order() Order {
	return Order{
		Parent:   t.parent,
		Weight:   t.weight,
		Label:    t.label,
		Position: t.pos,
		Identity: t.identity,
		Virtual:  t.virtual,
		Pre:      t.pre,
		PreEnd:   t.preEnd,
		RootDist: t.rootDist,
		t:        t,
	}
}

// BreadthFirst returns the same tree with its nodes renumbered in the
// internal breadth-first order (children in their previous user order), so
// that Order().Identity holds and vectors need no permutation on the hot
// path of package tw. Names, parents and weights are unchanged; only user
// indices change. Code that addresses labels by name (files of
// distributions, datasets) loses nothing by working on the renumbered tree.
func (t *Tree) BreadthFirst() *Tree {
	if t.identity {
		return t
	}
	u := *t
	off := 0
	if t.virtual {
		off = 1
	}
	n := t.Len()
	u.names = make([]string, n)
	u.label = make([]int32, len(t.label))
	u.pos = make([]int32, n)
	u.label[0] = -1
	for k := off; k < len(t.label); k++ {
		i := k - off
		u.names[i] = t.names[t.label[k]]
		u.label[k] = int32(i)
		u.pos[i] = int32(k)
	}
	u.index = strindex.Make(u.names)
	for i := range u.names {
		u.index.Add(i)
	}
	u.identity = true
	return &u
}

// String returns a short description such as "tree(1000 nodes, root "0")".
func (t *Tree) String() string {
	return fmt.Sprintf("tree(%d nodes, root %q)", t.Len(), t.rootName)
}

// ValidName reports whether name can name a node: not empty, valid UTF-8,
// without control characters (tabs and line breaks included), without
// leading or trailing space, and not starting with '#' (which marks a
// comment in edge lists). Otherwise it says what is wrong.
func ValidName(name string) (ok bool, why string) {
	why = checkName(name)
	return why == "", why
}

// checkName reports why name cannot be a node name, or "" if it can. Names
// must survive a round trip through the edge-list format.

func checkName(name string) string {
	if plainName(name) {
		return ""
	}
	return checkNameSlow(name)
}

// checkNameSlow is checkName without its fast path.
func checkNameSlow(name string) string {
	switch {
	case name == "":
		return "empty name"
	case strings.ContainsAny(name, "\t\n\r"):
		return fmt.Sprintf("name %q contains a tab or line break", name)
	case !utf8.ValidString(name):
		return fmt.Sprintf("name %s is not valid UTF-8", clipName(name))
	case strings.ContainsFunc(name, unicode.IsControl):
		return fmt.Sprintf("name %s contains a control character", clipName(name))
	case strings.TrimSpace(name) != name:
		return fmt.Sprintf("name %q has leading or trailing space", name)
	case name[0] == '#':
		return fmt.Sprintf("name %q starts with '#', which marks a comment", name)
	}
	return ""
}

// plainName reports whether name is non-empty printable ASCII without
// leading or trailing spaces and does not start with '#': a valid name,
// found in one pass (the common case; checkName's tests decide the rest).
func plainName(name string) bool {
	if name == "" || name[0] == '#' || name[0] == ' ' || name[len(name)-1] == ' ' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < ' ' || c > '~' {
			return false
		}
	}
	return true
}

// clipName quotes name for a message, shortened to about 40 bytes.
func clipName(name string) string {
	if len(name) > 40 {
		return strconv.Quote(name[:40]) + "…"
	}
	return strconv.Quote(name)
}

// checkWeight reports why w cannot be an edge weight, or "" if it can.
func checkWeight(w float64) string {
	switch {
	case math.IsNaN(w):
		return "weight is NaN"
	case math.IsInf(w, 0):
		return "weight is infinite"
	case w < 0:
		return "weight " + strconv.FormatFloat(w, 'g', -1, 64) + " is negative"
	case underflow.Value(w):
		// A subnormal float64 holds fewer digits (7e-324 reads as
		// 5e-324), and the products of TW lose the rest.
		return "weight " + strconv.FormatFloat(w, 'g', -1, 64) + " " + belowNormal
	}
	return ""
}

// belowNormal says why a weight below 2.2e-308 is refused.
const belowNormal = "is below 2.2e-308, the smallest normal float64: too small to compute with in full precision (scale the weights up)"
