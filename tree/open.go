package tree

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/twl-ldl/twl/internal/human"
)

// MaxGenerated bounds N in the specs chain:N and star:N, so that a mistyped
// N is refused at once instead of exhausting memory (a tree takes about 160
// bytes a node, and every distribution over it 8).
const MaxGenerated = 50_000_000

// ErrSpec is wrapped by the errors of Open for a spec that is malformed
// (chain:x, star:0), as opposed to a file that cannot be read or parsed.
var ErrSpec = errors.New("bad tree spec")

// specError is an error in a spec itself.
type specError struct{ msg string }

func (e *specError) Error() string { return e.msg }
func (e *specError) Unwrap() error { return ErrSpec }

// Open returns the tree that spec names, in every form the command line
// accepts:
//
//   - chain:N, a path of N nodes named "0" … "N−1" (ordinal labels: Chain);
//   - star:N, N leaves named "0" … "N−1" under a root (unordered labels: Star);
//   - taxonomy:FILE, a toolkit taxonomy (ReadTaxonomy);
//   - edges:FILE, an edge list (Read);
//   - FILE, a taxonomy if its name ends in .taxonomy, else an edge list.
//
// A FILE given without a prefix that has a line starting with Root<TAB> is
// refused as ambiguous: read as an edge list it would make "Root" a label,
// and a taxonomy with one child per line reads as an edge list without
// error. A file named chain or star is given as ./chain. A malformed
// chain:N or star:N is an error wrapping ErrSpec; a directory is an error
// wrapping syscall.EISDIR. opts is passed to the reader.
func Open(spec string, opts *Options) (*Tree, error) {
	if kind, count, ok := strings.Cut(spec, ":"); ok && (kind == "chain" || kind == "star") {
		n, err := strconv.Atoi(count)
		if err != nil || n < 1 {
			return nil, &specError{fmt.Sprintf("%s: want %s:N with N a positive number of labels", spec, kind)}
		}
		if n > MaxGenerated {
			return nil, &specError{fmt.Sprintf("%s: at most %d labels (a tree takes about 160 bytes per label, and every distribution 8)", spec, MaxGenerated)}
		}
		if limit := opts.maxBytes(); limit > 0 && NodeBytes*float64(n+1) > float64(limit) {
			return nil, &Error{File: spec, Err: ErrTooLarge, Msg: fmt.Sprintf("a tree of %d nodes needs about %s, more than the %s allowed",
				n+1, human.Bytes(NodeBytes*float64(n+1)), human.Bytes(float64(limit)))}
		}
		if kind == "chain" {
			return Chain(n), nil
		}
		return Star(n), nil
	}
	path := SpecFile(spec)
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s: %w, not a file", path, syscall.EISDIR)
	}
	if strings.HasPrefix(spec, "taxonomy:") {
		return ReadTaxonomyFile(path, opts)
	}
	if strings.HasPrefix(spec, "edges:") {
		return ReadFile(path, opts)
	}
	// Read once, up to a line too long: the readers take the text as it
	// is, and report that line after the lines before it.
	f, err := openFile(spec)
	if err != nil {
		return nil, err
	}
	data, rerr := readAll(f, spec, opts.maxBytes())
	f.Close()
	if errors.Is(rerr, ErrTooLarge) {
		return nil, rerr
	}
	if filepath.Ext(spec) == ".taxonomy" {
		return ReadTaxonomy(&text{data, rerr}, spec, opts)
	}
	if line := rootLine(data); line > 0 {
		return nil, fmt.Errorf("%s:%d: a line starts with Root<TAB>, as in a toolkit taxonomy: "+
			"give the tree as taxonomy:%s (or name it .taxonomy), or as edges:%s if Root is a node of an edge list", spec, line, spec, spec)
	}
	return Read(&text{data, rerr}, spec, opts)
}

// SpecFile returns the file a spec of Open reads: spec without a taxonomy:
// or edges: prefix, or "" for chain:N and star:N.
func SpecFile(spec string) string {
	if kind, _, ok := strings.Cut(spec, ":"); ok && (kind == "chain" || kind == "star") {
		return ""
	}
	for _, p := range []string{"taxonomy:", "edges:"} {
		if path, ok := strings.CutPrefix(spec, p); ok {
			return path
		}
	}
	return spec
}

// rootLine returns the 1-based number of the first line of data that
// starts with Root<TAB>, or 0.
func rootLine(data string) int {
	for n := 1; ; n++ {
		line, rest, more := strings.Cut(data, "\n")
		if strings.HasPrefix(strings.TrimPrefix(line, "\ufeff"), TaxonomyRoot+"\t") {
			return n
		}
		if !more {
			return 0
		}
		data = rest
	}
}

// Hash returns the lower-case hex SHA-256 of t.Format(), the tree's
// canonical edge list: two trees have the same hash when they have the same
// nodes, edges and weights, whatever the order of their files' lines.
func (t *Tree) Hash() string {
	sum := sha256.Sum256([]byte(t.Format()))
	return hex.EncodeToString(sum[:])
}

// Ref names a tree in a model or report file: how it was given and its
// Hash.
type Ref struct {
	// Source is how the tree was given: "chain:N", "star:N" or a file name.
	Source string `json:"source"`
	// SHA256 is the tree's Hash.
	SHA256 string `json:"sha256"`
}

// RefOf returns the Ref of t given as source.
func RefOf(t *Tree, source string) Ref { return Ref{Source: source, SHA256: t.Hash()} }

// Matches reports whether t is the tree r names: whether its Hash is
// r.SHA256 (the source is not compared: the same tree may be given another
// way).
func (r Ref) Matches(t *Tree) bool { return t.Hash() == r.SHA256 }
