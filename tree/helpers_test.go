package tree_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// sentinels lists every sentinel error of package tree.
var sentinels = []error{
	tree.ErrEmpty, tree.ErrCycle, tree.ErrTwoParents, tree.ErrSelfLoop,
	tree.ErrDuplicateEdge, tree.ErrBadWeight, tree.ErrBadName, tree.ErrSyntax,
	tree.ErrUnknownNode,
}

// checkErr checks that err is a *tree.Error wrapping want (and no other
// sentinel) with the given file and line, whose message starts "FILE:LINE: "
// (or "FILE: " when line is 0, "line LINE: " when file is empty).
func checkErr(t *testing.T, err, want error, file string, line int) {
	t.Helper()
	if err == nil {
		t.Errorf("no error, want %v", want)
		return
	}
	if !errors.Is(err, want) {
		t.Errorf("error %q does not wrap %q", err, want)
	}
	for _, s := range sentinels {
		if s != want && errors.Is(err, s) {
			t.Errorf("error %q also wraps %q", err, s)
		}
	}
	var te *tree.Error
	if !errors.As(err, &te) {
		t.Errorf("error %q (%T) is not a *tree.Error", err, err)
		return
	}
	if te.File != file || te.Line != line {
		t.Errorf("error %q at %q:%d, want %q:%d", err, te.File, te.Line, file, line)
	}
	var prefix string
	switch {
	case file != "" && line > 0:
		prefix = fmt.Sprintf("%s:%d: ", file, line)
	case file != "":
		prefix = file + ": "
	case line > 0:
		prefix = fmt.Sprintf("line %d: ", line)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix+want.Error()) {
		t.Errorf("message %q does not start with %q", msg, prefix+want.Error())
	}
}

// sameTree checks that got and want have the same names, the same parent of
// every node (by name), bit-identical edge weights, and the same root. User
// orders may differ.
func sameTree(t *testing.T, got, want *tree.Tree) {
	t.Helper()
	if got.Len() != want.Len() || got.Virtual() != want.Virtual() || got.RootName() != want.RootName() {
		t.Fatalf("got %v (virtual %v, root %q), want %v (virtual %v, root %q)",
			got, got.Virtual(), got.RootName(), want, want.Virtual(), want.RootName())
	}
	for i := 0; i < want.Len(); i++ {
		name := want.Name(i)
		j, ok := got.Index(name)
		if !ok {
			t.Fatalf("node %q missing", name)
		}
		wp, gp := "", ""
		if p := want.Parent(i); p >= 0 {
			wp = want.Name(p)
		}
		if p := got.Parent(j); p >= 0 {
			gp = got.Name(p)
		}
		if wp != gp {
			t.Errorf("parent of %q: got %q, want %q", name, gp, wp)
		}
		if g, w := got.Weight(j), want.Weight(i); math.Float64bits(g) != math.Float64bits(w) {
			t.Errorf("weight above %q: got %v, want %v", name, g, w)
		}
	}
}

// sameUserOrder checks that got and want agree node by node in user order,
// in their internal order, and in their text form.
func sameUserOrder(t *testing.T, got, want *tree.Tree) {
	t.Helper()
	sameTree(t, got, want)
	if !slices.Equal(got.Names(), want.Names()) {
		t.Fatalf("names %q, want %q", got.Names(), want.Names())
	}
	for i := 0; i < want.Len(); i++ {
		if got.Parent(i) != want.Parent(i) {
			t.Errorf("Parent(%d) = %d, want %d", i, got.Parent(i), want.Parent(i))
		}
	}
	g, w := got.Order(), want.Order()
	if !slices.Equal(g.Parent, w.Parent) || !slices.Equal(g.Weight, w.Weight) ||
		!slices.Equal(g.Label, w.Label) || !slices.Equal(g.Position, w.Position) ||
		g.Identity != w.Identity || g.Virtual != w.Virtual {
		t.Errorf("orders differ:\n got %+v\nwant %+v", g, w)
	}
	if got.Format() != want.Format() {
		t.Errorf("Format differs:\n got %q\nwant %q", got.Format(), want.Format())
	}
}

// checkOrder checks the documented invariants of t.Order() against the
// user-order queries, computing Identity independently.
func checkOrder(t *testing.T, tr *tree.Tree) {
	t.Helper()
	o := tr.Order()
	n := tr.Len()
	N := n
	if tr.Virtual() {
		N++
	}
	if len(o.Parent) != N || len(o.Weight) != N || len(o.Label) != N || len(o.Position) != n {
		t.Fatalf("lengths %d %d %d %d, want %d %d %d %d",
			len(o.Parent), len(o.Weight), len(o.Label), len(o.Position), N, N, N, n)
	}
	if tr.Edges() != N-1 {
		t.Errorf("Edges() = %d, want %d", tr.Edges(), N-1)
	}
	if o.Parent[0] != -1 || o.Weight[0] != 0 {
		t.Errorf("position 0: parent %d weight %v, want -1, 0", o.Parent[0], o.Weight[0])
	}
	if o.Virtual != tr.Virtual() || (o.Label[0] == -1) != tr.Virtual() {
		t.Errorf("Virtual %v, Label[0] %d, tree virtual %v", o.Virtual, o.Label[0], tr.Virtual())
	}
	if tr.Root() != int(o.Label[0]) {
		t.Errorf("Root() = %d, Label[0] = %d", tr.Root(), o.Label[0])
	}
	// Identity: the user order is the internal order, shifted by one below
	// a virtual root.
	off := 0
	if tr.Virtual() {
		off = 1
	}
	identity := true
	for k := 1; k < N; k++ {
		if p := o.Parent[k]; p < 0 || int(p) >= k {
			t.Fatalf("Parent[%d] = %d, want in [0, %d)", k, p, k)
		}
		if o.Parent[k] < o.Parent[k-1] {
			t.Errorf("Parent not non-decreasing at %d (breadth-first order)", k)
		}
		if o.Label[k] < 0 {
			t.Fatalf("Label[%d] = %d at a non-root position", k, o.Label[k])
		}
	}
	for k := 0; k < N; k++ {
		l := o.Label[k]
		if l < 0 {
			continue
		}
		if int(l) != k-off {
			identity = false
		}
		if int(o.Position[l]) != k {
			t.Errorf("Position[Label[%d]] = %d", k, o.Position[l])
		}
	}
	if o.Identity != identity {
		t.Errorf("Identity = %v, want %v", o.Identity, identity)
	}
	seen := make([]bool, N)
	for i := 0; i < n; i++ {
		k := o.Position[i]
		if k < 0 || int(k) >= N || seen[k] {
			t.Fatalf("Position[%d] = %d: out of range or repeated", i, k)
		}
		seen[k] = true
		if int(o.Label[k]) != i {
			t.Errorf("Label[Position[%d]] = %d", i, o.Label[k])
		}
		if o.Weight[k] != tr.Weight(i) {
			t.Errorf("Weight[Position[%d]] = %v, tree.Weight = %v", i, o.Weight[k], tr.Weight(i))
		}
		want := -1
		if k > 0 {
			want = int(o.Label[o.Parent[k]])
		}
		if tr.Parent(i) != want {
			t.Errorf("Parent(%d) = %d, order says %d", i, tr.Parent(i), want)
		}
	}
}
