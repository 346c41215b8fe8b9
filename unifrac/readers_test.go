package unifrac

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/tree"
)

// readNewick reads a one-line Newick tree with branch lengths (no quoting or
// comments), naming unnamed internal nodes "_iN". It is a minimal test
// reader.
func readNewick(path string) (*tree.Tree, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := strings.TrimSpace(string(data))
	s = strings.TrimSuffix(s, ";")
	var b tree.Builder
	var stack []int   // open parentheses: index into kids
	var kids [][]edge // children of each open node
	anon := 0
	pos := 0
	// label reads name[:length] at pos.
	label := func() (string, float64, error) {
		start := pos
		for pos < len(s) && !strings.ContainsRune("(),:", rune(s[pos])) {
			pos++
		}
		name := s[start:pos]
		w := 0.0
		if pos < len(s) && s[pos] == ':' {
			pos++
			start = pos
			for pos < len(s) && !strings.ContainsRune("(),", rune(s[pos])) {
				pos++
			}
			var err error
			if w, err = strconv.ParseFloat(s[start:pos], 64); err != nil {
				return "", 0, err
			}
		}
		if name == "" {
			anon++
			name = fmt.Sprintf("_i%d", anon)
		}
		return name, w, nil
	}
	var last edge
	for pos < len(s) {
		switch s[pos] {
		case '(':
			stack = append(stack, len(kids))
			kids = append(kids, nil)
			pos++
		case ',':
			kids[stack[len(stack)-1]] = append(kids[stack[len(stack)-1]], last)
			pos++
		case ')':
			top := stack[len(stack)-1]
			kids[top] = append(kids[top], last)
			stack = stack[:len(stack)-1]
			pos++
			name, w, err := label()
			if err != nil {
				return nil, err
			}
			for _, k := range kids[top] {
				b.AddEdge(name, k.name, k.w)
			}
			kids = kids[:top]
			last = edge{name, w}
		default:
			name, w, err := label()
			if err != nil {
				return nil, err
			}
			last = edge{name, w}
		}
	}
	if len(stack) != 0 {
		return nil, fmt.Errorf("%s: unbalanced parentheses", path)
	}
	b.AddNode(last.name)
	return b.Build(nil)
}

type edge struct {
	name string
	w    float64
}

// readTriplets reads lines "sample<TAB>node<TAB>count", samples in
// contiguous runs, into a Table over t's nodes.
func readTriplets(path string, t *tree.Tree) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tab := &Table{Indptr: []int{0}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 3 {
			return nil, fmt.Errorf("%s: bad line %q", path, sc.Text())
		}
		if len(tab.IDs) == 0 || tab.IDs[len(tab.IDs)-1] != fs[0] {
			if len(tab.IDs) > 0 {
				tab.Indptr = append(tab.Indptr, len(tab.Indices))
			}
			tab.IDs = append(tab.IDs, fs[0])
		}
		i, ok := t.Index(fs[1])
		if !ok {
			return nil, fmt.Errorf("%s: unknown node %q", path, fs[1])
		}
		c, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			return nil, err
		}
		tab.Indices = append(tab.Indices, int32(i))
		tab.Values = append(tab.Values, c)
	}
	tab.Indptr = append(tab.Indptr, len(tab.Indices))
	return tab, sc.Err()
}
