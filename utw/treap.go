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
	pos, wt, sum, lazy []float64
	left, right        []int32
}

// reset empties the arena, keeping its memory.
func (k *keys) reset() {
	k.pos, k.wt, k.sum, k.lazy = append(k.pos[:0], 0), append(k.wt[:0], 0), append(k.sum[:0], 0), append(k.lazy[:0], 0)
	k.left, k.right = append(k.left[:0], 0), append(k.right[:0], 0)
}

// node returns a new one-node treap.
func (k *keys) node(pos, wt float64) int32 {
	x := int32(len(k.pos))
	k.pos = append(k.pos, pos)
	k.wt = append(k.wt, wt)
	k.sum = append(k.sum, wt)
	k.lazy = append(k.lazy, 0)
	k.left = append(k.left, 0)
	k.right = append(k.right, 0)
	return x
}

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
		k.pos[x] += d
		k.lazy[x] += d
	}
}

// push hands x's pending shift down to its children.
func (k *keys) push(x int32) {
	if d := k.lazy[x]; d != 0 {
		k.shift(k.left[x], d)
		k.shift(k.right[x], d)
		k.lazy[x] = 0
	}
}

func (k *keys) pull(x int32) {
	k.sum[x] = k.sum[k.left[x]] + k.wt[x] + k.sum[k.right[x]]
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
	if k.pos[x] < p || k.pos[x] == p && x < id {
		l, r := k.splitBelow(k.right[x], p, id)
		k.right[x] = l
		k.pull(x)
		return x, r
	}
	l, r := k.splitBelow(k.left[x], p, id)
	k.left[x] = r
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
	if through := k.sum[k.left[x]] + k.wt[x]; through < s {
		l, r := k.splitWeight(k.right[x], s-through)
		k.right[x] = l
		k.pull(x)
		return x, r
	}
	l, r := k.splitWeight(k.left[x], s)
	k.left[x] = r
	k.pull(x)
	return l, x
}

// popFirst removes the first node of x and returns it and the rest.
func (k *keys) popFirst(x int32) (first, rest int32) {
	k.push(x)
	if k.left[x] == 0 {
		r := k.right[x]
		k.right[x] = 0
		k.pull(x)
		return x, r
	}
	f, l := k.popFirst(k.left[x])
	k.left[x] = l
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
		k.right[x] = k.join(k.right[x], y)
		k.pull(x)
		return x
	}
	k.push(y)
	k.left[y] = k.join(x, k.left[y])
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
	l, r := k.splitBelow(y, k.pos[x], x)
	k.left[x] = k.union(k.left[x], l)
	k.right[x] = k.union(k.right[x], r)
	k.pull(x)
	return x
}

// find returns the position of the first node of x whose running weight,
// through it, reaches s, or false if the total weight is below s.
func (k *keys) find(x int32, s float64) (float64, bool) {
	for x != 0 {
		k.push(x)
		l := k.left[x]
		switch through := k.sum[l] + k.wt[x]; {
		case k.sum[l] >= s && l != 0:
			x = l
		case through >= s:
			return k.pos[x], true
		default:
			s -= through
			x = k.right[x]
		}
	}
	return 0, false
}
