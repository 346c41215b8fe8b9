// Package tree holds rooted label trees: the ground metric of the
// tree-Wasserstein distance.
//
// A Tree has named nodes (labels) and a non-negative weight on the edge above
// every non-root node. It is immutable once built, and safe for concurrent
// use by any number of readers.
//
// # Node orders
//
// Users address nodes by name or by their user index 0..Len()-1: the order of
// the parent array given to FromParents, the order of first appearance for a
// Builder or an edge-list file. Vectors of mass (distributions) are indexed in
// user order everywhere in twl.
//
// Internally the nodes are kept in breadth-first order, children in user
// order. In that order every parent precedes its children, so subtree sums are
// one reverse sweep and root-to-node sums one forward sweep; and a node's
// parent lies a whole level back, so consecutive steps of a sweep rarely wait
// on each other. Order exposes the internal order and the mapping between the
// two for the algorithms of package tw. When the user order is that
// breadth-first order (Order().Identity: chains, stars, trees from
// breadth-first parent arrays, and any tree after BreadthFirst), vectors need
// no permutation and the sweeps read them in place, which is several times
// faster on large trees than gathering them through a permutation.
//
// # Forests
//
// A forest (several roots) is joined under a virtual root by an edge of weight
// Options.VirtualRootWeight (default 1) to each of its roots, as the paper does
// for BlurbGenreCollection. The virtual root is not a label: it has no user
// index, never carries mass and never appears in user data. Its display name
// (RootName) is chosen so that it cannot collide with a real node's name.
//
// # Queries
//
// Depth, subtree membership and root distances are O(1). The lowest common
// ancestor, and with it the shortest-path distance d_T(u, v), costs O(log L)
// through a heavy-path decomposition built in O(L) time and memory. The dense
// distance matrix costs O(L²) time and 8·L² bytes; it is meant for small trees
// (baselines and metrics that need a cost matrix).
//
// # Errors
//
// Invalid trees (cycles, a node with two parents, self-loops, duplicate edges,
// negative, NaN or infinite weights, bad names, empty input) are reported as
// *Error values that wrap one of the sentinel errors (ErrCycle, ...) and, for
// files, carry the file name and 1-based line: "FILE:LINE: what is wrong".
// Panics are reserved for programmer errors such as an out-of-range index.
//
// A file is read whole, into one string that the names share; a line may
// be 1 MiB long at most, and a longer one is reported (after the lines
// before it) as soon as it is read, not after the whole file. Under
// Options.MaxBytes, a file larger than the limit is not read, and a text
// whose nodes would take more (NodeBytes a node for an edge list, two
// counted a line; TaxonomyNodeBytes for a taxonomy, one counted a field)
// is not parsed, nor chain:N and star:N made past it: ErrTooLarge.
//
// # Edge-list format
//
// One edge per line: parent<TAB>child or parent<TAB>child<TAB>weight, with
// weight 1 when omitted. A line holding a single name declares a node (for
// example an isolated root). Blank lines and lines whose first non-blank
// character is '#' are ignored. Fields are separated by TAB only, so names may
// contain spaces; spaces around a field are trimmed. (A node named by a line
// with spaces and no TAB that gets no edge is most likely an edge separated
// by spaces: Options.Warn hears of it.) A weight is a decimal
// number ("1", "0.5", "2e-3"; also "NaN" and "Inf", which are rejected as
// invalid weights); Go's digit separators and hexadecimal floats are not
// accepted. Nodes are numbered in the order they first appear.
//
// # Taxonomy format
//
// ReadTaxonomy reads the layout of the hierarchical text-classification
// toolkits (HiAGM and its successors): one line per parent,
// parent<TAB>child<TAB>child…, all edges of weight 1, and a line whose
// parent is "Root" listing the top-level labels. Root is not a label: the
// top-level labels are the roots of a forest under the virtual root.
package tree
