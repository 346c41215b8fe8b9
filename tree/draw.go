package tree

import (
	"bufio"
	"io"
)

// Draw writes t for people, one node per line with box-drawing
// characters, children in user order under their parent, each line
// starting with indent:
//
//	animal
//	├── mammal
//	│   ├── dog
//	│   └── cat
//	└── reptile
//
// A forest is drawn one root after the other.
func (t *Tree) Draw(w io.Writer, indent string) error {
	bw := bufio.NewWriter(w)
	var draw func(i int, prefix string, last, root bool)
	draw = func(i int, prefix string, last, root bool) {
		switch {
		case root:
			bw.WriteString(indent + t.Name(i) + "\n")
		case last:
			bw.WriteString(indent + prefix + "└── " + t.Name(i) + "\n")
			prefix += "    "
		default:
			bw.WriteString(indent + prefix + "├── " + t.Name(i) + "\n")
			prefix += "│   "
		}
		kids := t.Children(nil, i)
		for k, c := range kids {
			draw(c, prefix, k == len(kids)-1, false)
		}
	}
	for i := range t.Len() {
		if t.Parent(i) < 0 {
			draw(i, "", false, true)
		}
	}
	return bw.Flush()
}
