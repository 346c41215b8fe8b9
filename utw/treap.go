package utw

// keys is an arena of treap nodes: a multiset of breakpoints (a position
// and a positive weight, the drop of a concave function's slope there)
// ordered by position, with the sum of the weights of every subtree and a
// pending shift of the positions below each node, so that shifting all the
// positions of a treap costs O(1). Node 0 is the empty treap.
//
// Priorities are a hash of the node's index, so that results do not
// depend on any random source and are the same on every run.
type keys struct {
	n []key
}

// key is a node of the arena: its fields share a cache line.
type key struct {
	pos, wt, sum, lazy float64
	left, right        int32
}

// reset empties the arena, keeping its memory.
func (k *keys) reset() { k.n = append(k.n[:0], key{}) }

// node returns a new one-node treap.
func (k *keys) node(pos, wt float64) int32 {
	x := int32(len(k.n))
	k.n = append(k.n, key{pos: pos, wt: wt, sum: wt})
	return x
}

// sum returns the total weight of treap x.
func (k *keys) sum(x int32) float64 { return k.n[x].sum }

// prio is the heap priority of node x: larger nearer the root.
func prio(x int32) uint32 {
	h := uint32(x) * 0x9e3779b1
	h ^= h >> 15
	h *= 0x85ebca77
	h ^= h >> 13
	return h
}

// shift adds d to every position of treap x.
func (k *keys) shift(x int32, d float64) {
	if x != 0 {
		p := &k.n[x]
		p.pos += d
		p.lazy += d
	}
}

// push hands x's pending shift down to its children.
func (k *keys) push(x int32) {
	p := &k.n[x]
	if d := p.lazy; d != 0 {
		k.shift(p.left, d)
		k.shift(p.right, d)
		p.lazy = 0
	}
}

func (k *keys) pull(x int32) {
	p := &k.n[x]
	p.sum = k.n[p.left].sum + p.wt + k.n[p.right].sum
}

// splitBelow splits x into the nodes that come before (p, id) in the
// order of (position, index) and the others. Equal positions are ordered
// by the nodes' indices, independent of their priorities (a hash of the
// index): ordering them by the path of each insertion instead would
// correlate order and priority and let the treap degenerate where many
// breakpoints share a position (unit weights).
func (k *keys) splitBelow(x int32, p float64, id int32) (int32, int32) {
	if x == 0 {
		return 0, 0
	}
	k.push(x)
	n := &k.n[x]
	if n.pos < p || n.pos == p && x < id {
		l, r := k.splitBelow(n.right, p, id)
		k.n[x].right = l
		k.pull(x)
		return x, r
	}
	l, r := k.splitBelow(n.left, p, id)
	k.n[x].left = r
	k.pull(x)
	return l, x
}

// splitWeight splits x into the longest prefix whose running weight,
// through each of its nodes, stays below s, and the rest.
func (k *keys) splitWeight(x int32, s float64) (int32, int32) {
	if x == 0 {
		return 0, 0
	}
	k.push(x)
	n := &k.n[x]
	if through := k.n[n.left].sum + n.wt; through < s {
		l, r := k.splitWeight(n.right, s-through)
		k.n[x].right = l
		k.pull(x)
		return x, r
	}
	l, r := k.splitWeight(n.left, s)
	k.n[x].left = r
	k.pull(x)
	return l, x
}

// popFirst removes the first node of x and returns it and the rest.
func (k *keys) popFirst(x int32) (first, rest int32) {
	k.push(x)
	if k.n[x].left == 0 {
		r := k.n[x].right
		k.n[x].right = 0
		k.pull(x)
		return x, r
	}
	f, l := k.popFirst(k.n[x].left)
	k.n[x].left = l
	k.pull(x)
	return f, x
}

// join concatenates x and y, every position of x at most every position
// of y.
func (k *keys) join(x, y int32) int32 {
	if x == 0 {
		return y
	}
	if y == 0 {
		return x
	}
	if prio(x) > prio(y) {
		k.push(x)
		r := k.join(k.n[x].right, y)
		k.n[x].right = r
		k.pull(x)
		return x
	}
	k.push(y)
	l := k.join(x, k.n[y].left)
	k.n[y].left = l
	k.pull(y)
	return y
}

// union merges the multisets x and y, in O(m log(n/m)) expected time for
// sizes m ≤ n.
func (k *keys) union(x, y int32) int32 {
	if x == 0 {
		return y
	}
	if y == 0 {
		return x
	}
	if prio(x) < prio(y) {
		x, y = y, x
	}
	k.push(x)
	l, r := k.splitBelow(y, k.n[x].pos, x)
	l = k.union(k.n[x].left, l)
	k.n[x].left = l
	r = k.union(k.n[x].right, r)
	k.n[x].right = r
	k.pull(x)
	return x
}

// find returns the position of the first node of x whose running weight,
// through it, reaches s, or false if the total weight is below s.
func (k *keys) find(x int32, s float64) (float64, bool) {
	for x != 0 {
		k.push(x)
		n := &k.n[x]
		switch through := k.n[n.left].sum + n.wt; {
		case k.n[n.left].sum >= s && n.left != 0:
			x = n.left
		case through >= s:
			return n.pos, true
		default:
			s -= through
			x = n.right
		}
	}
	return 0, false
}
