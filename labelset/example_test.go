package labelset_test

import (
	"fmt"
	"strings"

	"github.com/twl-ldl/twl/labelset"
	"github.com/twl-ldl/twl/tree"
)

func Example() {
	// Two top-level genres; Fantasy under Fiction.
	genres, _ := tree.Read(strings.NewReader("Fiction\tFantasy\nNonfiction\n"), "genres.tree", nil)
	p := []float64{0.20, 0.45, 0.35} // Fiction, Fantasy, Nonfiction (user order)
	names := func(set []int) []string {
		var s []string
		for _, l := range set {
			s = append(s, genres.Name(l))
		}
		return s
	}
	// The two labels of highest mass: Fantasy without its parent.
	fmt.Println(names(labelset.Top(nil, p, 2, 0)))
	// The closed set of two labels of highest mass.
	d := labelset.NewDecoder(genres)
	fmt.Println(names(d.Closed(nil, p, 2, 0)))
	// The labels of mass at least 0.3 whose ancestors have as much.
	fmt.Println(names(d.Closed(nil, p, 0, 0.3)))
	// Output:
	// [Fantasy Nonfiction]
	// [Fantasy Fiction]
	// [Nonfiction]
}
