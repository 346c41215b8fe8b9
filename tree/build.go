package tree

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/internal/strindex"
)

// FromParents builds a tree from a parent array: parent[i] is the index of
// node i's parent, or -1 if i is a root. Several roots make a forest, which is
// joined under a virtual root (see Options). weight[i] is the weight of the
// edge above node i; a nil weight means unit weights, and weight[i] is ignored
// for roots. A nil names gives the nodes the names "0", "1", ...
//
// The user order of the tree is the order of parent. Lengths of weight and
// names that differ from len(parent) are programmer errors and panic; every
// property of the values (cycles, out-of-range parents, bad weights or names)
// is reported as an *Error, with Line set to the 1-based index of the
// offending node.
func FromParents(parent []int, weight []float64, names []string, opts *Options) (*Tree, error) {
	n := len(parent)
	if weight != nil && len(weight) != n {
		panic("tree: len(weight) != len(parent)")
	}
	if names != nil && len(names) != n {
		panic("tree: len(names) != len(parent)")
	}
	if n == 0 {
		return nil, &Error{Err: ErrEmpty}
	}
	if names == nil {
		names = decimalNames(n)
	} else {
		names = append([]string(nil), names...)
	}
	// The index of the names is built on another goroutine while the
	// names are checked, the parents and weights validated and the tree
	// assembled; errors are reported as a pass over the nodes in order
	// meets them: a node's invalid name before its duplicate, both before
	// any parent or weight error.
	var index strindex.Index
	dup := -1 // the first node whose name an earlier node has
	var done chan struct{}
	if n >= concurrentIndex {
		done = make(chan struct{})
		go func() {
			index, dup = indexNames(names)
			close(done)
		}()
	} else {
		index, dup = indexNames(names)
	}
	bad, msg := -1, ""
	for i, name := range names {
		if msg = checkName(name); msg != "" {
			bad = i
			break
		}
	}
	wait := func() {
		if done != nil {
			<-done
			done = nil
		}
	}
	nameErr := func() error {
		wait()
		if bad >= 0 && (dup < 0 || bad <= dup) {
			return &Error{Line: bad + 1, Err: ErrBadName, Msg: msg}
		}
		if dup >= 0 {
			j := slices.Index(names, names[dup])
			return &Error{Line: dup + 1, Err: ErrBadName, Msg: fmt.Sprintf("name %q already used by node %d", names[dup], j+1)}
		}
		return nil
	}
	if bad >= 0 {
		return nil, nameErr()
	}
	fail := func(err error) (*Tree, error) {
		if e := nameErr(); e != nil {
			return nil, e
		}
		return nil, err
	}
	par := make([]int32, n)
	w := make([]float64, n)
	ordered := true // every parent before its child: no cycle
	for i, p := range parent {
		ordered = ordered && p < i
		switch {
		case p < -1 || p >= n:
			return fail(&Error{Line: i + 1, Err: ErrUnknownNode, Msg: fmt.Sprintf("parent %d of node %q is out of range [-1, %d)", p, names[i], n)})
		case p == i:
			return fail(&Error{Line: i + 1, Err: ErrSelfLoop, Msg: fmt.Sprintf("node %q is its own parent", names[i])})
		}
		par[i] = int32(p)
		w[i] = 1
		if p >= 0 && weight != nil {
			if msg := checkWeight(weight[i]); msg != "" {
				return fail(&Error{Line: i + 1, Err: ErrBadWeight, Msg: fmt.Sprintf("edge %q→%q: %s", names[p], names[i], msg)})
			}
			w[i] = weight[i]
		}
	}
	if !ordered {
		if cyc := findCycle(par); cyc != nil {
			return fail(&Error{Line: int(cyc[0]) + 1, Err: ErrCycle, Msg: describeCycle(cyc, names)})
		}
	}
	roots := 0
	for _, p := range par {
		if p < 0 {
			roots++
		}
	}
	if roots > 1 {
		wait() // the virtual root's name must be free
	}
	var ix strindex.Index // empty while the goroutine may still write index
	if done == nil {
		ix = index
	}
	t, err := assemble(par, w, names, ix, opts)
	if err != nil {
		return fail(err)
	}
	if err := nameErr(); err != nil {
		return nil, err
	}
	t.index = index
	return t, nil
}

// concurrentIndex is the number of nodes from which FromParents indexes
// the names on a goroutine of its own.
const concurrentIndex = 4096

// indexNames indexes each name by its position; dup is the first position
// whose name an earlier position has (and is not indexed), or -1.
func indexNames(names []string) (index strindex.Index, dup int) {
	index = strindex.Make(names)
	for i := range names {
		if _, dup := index.Add(i); dup {
			return index, i
		}
	}
	return index, -1
}

// Builder assembles a tree from named edges. The zero value is an empty
// builder. Nodes are numbered in the order they first appear. Errors are
// deferred to Build, which reports the first one.
type Builder struct {
	names  []string
	index  strindex.Index // over names[:cap(names)]: rebuilt when names moves
	parent []int32
	weight []float64
	line   []int // 1-based position (edge/line number) of the edge above each node
	n      int   // number of Add calls, the position of the next edge
	err    error
	file   string // for reader errors
	lineNo int    // when > 0, overrides n as the reported position
}

// grow makes room for about n more nodes, before the first: the size of
// the index of names, which would otherwise grow step by step.
func (b *Builder) grow(n int) {
	if cap(b.names) == 0 && n > 0 {
		b.names = make([]string, 0, n)
		b.index = strindex.Make(b.names[:n])
		b.parent = make([]int32, 0, n)
		b.weight = make([]float64, 0, n)
		b.line = make([]int, 0, n)
	}
}

func (b *Builder) pos() int {
	if b.lineNo > 0 {
		return b.lineNo
	}
	return b.n
}

func (b *Builder) fail(err error, msg string) {
	if b.err == nil {
		b.err = &Error{File: b.file, Line: b.pos(), Err: err, Msg: msg}
	}
}

func (b *Builder) node(name string) int {
	if i, ok := b.index.Get(name); ok {
		return i
	}
	if msg := checkName(name); msg != "" {
		b.fail(ErrBadName, msg)
		return -1
	}
	i := len(b.names)
	if i == cap(b.names) {
		// The index holds the names' array: a larger one, indexed anew.
		names := make([]string, i, max(16, 2*i))
		copy(names, b.names)
		b.names = names
		b.index = strindex.Make(names[:cap(names)])
		for k := range i {
			b.index.Add(k)
		}
	}
	b.names = append(b.names, name)
	b.index.Add(i)
	b.parent = append(b.parent, -1)
	b.weight = append(b.weight, 1)
	b.line = append(b.line, 0)
	return i
}

// AddNode declares a node (for example an isolated root). Declaring a node
// that already exists is allowed and does nothing.
func (b *Builder) AddNode(name string) {
	b.n++
	b.node(name)
}

// AddEdge adds the edge parent→child with the given weight.
func (b *Builder) AddEdge(parent, child string, weight float64) {
	b.n++
	if b.err != nil {
		return
	}
	if parent == child {
		b.fail(ErrSelfLoop, fmt.Sprintf("%q is its own parent", child))
		return
	}
	if msg := checkWeight(weight); msg != "" {
		b.fail(ErrBadWeight, fmt.Sprintf("edge %q→%q: %s", parent, child, msg))
		return
	}
	p, c := b.node(parent), b.node(child)
	if p < 0 || c < 0 {
		return
	}
	if old := b.parent[c]; old >= 0 {
		if int(old) == p {
			b.fail(ErrDuplicateEdge, fmt.Sprintf("edge %q→%q already given at %s", parent, child, b.where(b.line[c])))
		} else {
			b.fail(ErrTwoParents, fmt.Sprintf("%q already has parent %q (%s), now %q", child, b.names[old], b.where(b.line[c]), parent))
		}
		return
	}
	b.parent[c] = int32(p)
	b.weight[c] = weight
	b.line[c] = b.pos()
}

func (b *Builder) where(line int) string {
	if b.file != "" || b.lineNo > 0 {
		return "line " + strconv.Itoa(line)
	}
	return "edge " + strconv.Itoa(line)
}

// Build returns the tree, or the first error met while adding edges, or an
// error for a cycle. A Builder can keep adding after Build.
func (b *Builder) Build(opts *Options) (*Tree, error) { return b.build(opts, false) }

// build is Build; with last set, the tree takes b's arrays and index
// instead of copies, and b must not be used again.
func (b *Builder) build(opts *Options, last bool) (*Tree, error) {
	if b.err != nil {
		return nil, b.err
	}
	if len(b.names) == 0 {
		return nil, &Error{File: b.file, Err: ErrEmpty}
	}
	if cyc := findCycle(b.parent); cyc != nil {
		// Report the line of the edge that closes the cycle last.
		last := 0
		for _, v := range cyc {
			last = max(last, b.line[v])
		}
		return nil, &Error{File: b.file, Line: last, Err: ErrCycle, Msg: describeCycle(cyc, b.names)}
	}
	par, w, names, index := b.parent, b.weight, b.names, b.index
	if !last {
		par = append([]int32(nil), b.parent...)
		w = append([]float64(nil), b.weight...)
		names = append([]string(nil), b.names...)
		index = strindex.Make(names)
		for i := range names {
			index.Add(i)
		}
	}
	t, err := assemble(par, w, names, index, opts)
	if e, ok := err.(*Error); ok {
		// An invalid Options.VirtualRootWeight is reported for the whole
		// file; an overflowing path at the line of its last edge, where
		// assemble gives the node's 1-based index.
		e.File = b.file
		if e.Line > 0 {
			e.Line = b.line[e.Line-1]
		}
	}
	return t, err
}

// findCycle returns the nodes of a cycle in the parent array, or nil if it
// has none. It is O(n).
func findCycle(parent []int32) []int32 {
	const (
		unseen = iota
		active
		done
	)
	state := make([]uint8, len(parent))
	for s := range parent {
		if state[s] != unseen {
			continue
		}
		v := int32(s)
		for v >= 0 && state[v] == unseen {
			state[v] = active
			v = parent[v]
		}
		if v >= 0 && state[v] == active {
			// v is on a cycle: collect it.
			cyc := []int32{v}
			for u := parent[v]; u != v; u = parent[u] {
				cyc = append(cyc, u)
			}
			return cyc
		}
		for u := int32(s); u >= 0 && state[u] == active; u = parent[u] {
			state[u] = done
		}
	}
	return nil
}

func describeCycle(cyc []int32, names []string) string {
	const show = 8
	var sb strings.Builder
	// Print parent before child: cyc lists child, parent, grandparent, ...
	for k := len(cyc) - 1; k >= 0; k-- {
		if len(cyc)-1-k == show {
			fmt.Fprintf(&sb, " → … (%d nodes)", len(cyc))
			break
		}
		if k < len(cyc)-1 {
			sb.WriteString(" → ")
		}
		fmt.Fprintf(&sb, "%q", names[cyc[k]])
	}
	fmt.Fprintf(&sb, " → %q", names[cyc[len(cyc)-1]])
	return sb.String()
}

func decimalNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	return names
}

// assemble builds the internal representation from a validated, acyclic
// parent array in user order (-1 marks roots).
func assemble(parent []int32, weight []float64, names []string, index strindex.Index, opts *Options) (*Tree, error) {
	n := len(parent)
	var roots int
	for _, p := range parent {
		if p < 0 {
			roots++
		}
	}
	t := &Tree{names: names, index: index, virtual: roots > 1}
	N := n // total nodes; the virtual root, if any, gets extended index n
	root := int32(-1)
	if t.virtual {
		vw := opts.virtualWeight()
		if msg := checkWeight(vw); msg != "" {
			return nil, &Error{Err: ErrBadWeight, Msg: "virtual root: " + msg}
		}
		N = n + 1
		root = int32(n)
		parent = append(parent, -1)
		weight = append(weight, 0)
		for i := 0; i < n; i++ {
			if parent[i] < 0 {
				parent[i] = root
				weight[i] = vw
			}
		}
		t.rootName = freeName(opts.rootName(), index)
	} else {
		for i, p := range parent {
			if p < 0 {
				root = int32(i)
				weight[i] = 0
			}
		}
		t.rootName = names[root]
	}

	// Children in compressed rows, each row in ascending user order.
	start := make([]int32, N+1)
	for _, p := range parent {
		if p >= 0 {
			start[p+1]++
		}
	}
	for v := 0; v < N; v++ {
		start[v+1] += start[v]
	}
	child := make([]int32, N-1)
	fill := append([]int32(nil), start[:N]...)
	for v, p := range parent {
		if p >= 0 {
			child[fill[p]] = int32(v)
			fill[p]++
		}
	}

	// Breadth-first order, then subtree sizes by a reverse sweep.
	bfs := make([]int32, 0, N)
	bfs = append(bfs, root)
	for h := 0; h < len(bfs); h++ {
		v := bfs[h]
		bfs = append(bfs, child[start[v]:start[v+1]]...)
	}
	if len(bfs) != N {
		// Unreachable after findCycle; kept as a guard against silent corruption.
		return nil, &Error{Err: ErrCycle, Msg: "some nodes are not reachable from the root"}
	}
	size := make([]int32, N)
	for k := N - 1; k >= 0; k-- {
		v := bfs[k]
		size[v]++
		if p := parent[v]; p >= 0 {
			size[p] += size[v]
		}
	}

	// Positions are breadth-first indices. Children of a node are contiguous,
	// and a node's parent was placed a whole level earlier, which keeps the
	// sweeps of package tw free of store-to-load dependencies between
	// consecutive positions.
	t.parent = make([]int32, N)
	t.weight = make([]float64, N)
	t.first = make([]int32, N+1)
	t.pre = make([]int32, N)
	t.preEnd = make([]int32, N)
	t.head = make([]int32, N)
	t.depth = make([]int32, N)
	t.rootDist = make([]float64, N)
	t.label = make([]int32, N)
	t.pos = make([]int32, n)
	t.identity = true
	off := int32(0) // position of user node 0 if the user order is breadth-first
	if t.virtual {
		off = 1
	}
	next := int32(1) // position of the next child to be placed
	t.parent[0] = -1
	for k, v := range bfs {
		kk := int32(k)
		if v == int32(n) {
			t.label[k] = -1
		} else {
			t.label[k] = v
			t.pos[v] = kk
			if v != kk-off {
				t.identity = false
			}
		}
		t.weight[k] = weight[v]
		t.preEnd[k] = t.pre[k] + size[v]
		t.first[k] = next
		kids := child[start[v]:start[v+1]]
		heavy, pre := -1, t.pre[k]+1
		for j, c := range kids {
			ck := next + int32(j)
			t.parent[ck] = kk
			t.depth[ck] = t.depth[k] + 1
			t.rootDist[ck] = t.rootDist[k] + weight[c]
			t.pre[ck] = pre
			pre += size[c]
			t.head[ck] = ck
			if heavy < 0 || size[c] > size[kids[heavy]] {
				heavy = j
			}
		}
		if heavy >= 0 {
			t.head[next+int32(heavy)] = t.head[k]
		}
		next += int32(len(kids))
	}
	t.first[N] = next
	if err := t.checkPathLengths(); err != nil {
		return nil, err
	}
	return t, nil
}

// checkPathLengths reports weights so large that a path length, at most
// twice the largest distance from the root, overflows to +Inf: every
// distance is then finite.
func (t *Tree) checkPathLengths() error {
	var far float64
	at := 0
	for k, d := range t.rootDist {
		if d > far {
			far, at = d, k
		}
	}
	if math.IsInf(2*far, 1) {
		name, line := t.rootName, 0
		if l := t.label[at]; l >= 0 {
			name, line = t.names[l], int(l)+1 // the node's 1-based user index
		}
		return &Error{Line: line, Err: ErrBadWeight, Msg: fmt.Sprintf("the path from the root to %q is %v long: distances would overflow float64", name, far)}
	}
	return nil
}

func freeName(base string, taken strindex.Index) string {
	name := base
	for i := 2; ; i++ {
		if _, ok := taken.Get(name); !ok {
			return name
		}
		name = base + "#" + strconv.Itoa(i)
	}
}
