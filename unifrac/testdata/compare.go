//go:build ignore

// Compare is the whole-process side of the timings against Striped UniFrac:
// it reads a Newick tree and a table of "sample<TAB>tip<TAB>count" lines
// (as gen.py writes them), computes all pairs with package unifrac and
// writes the matrix in ssu's TSV layout (a header of sample ids, then one
// row per sample, values to 16 significant digits).
//
//	go run compare.go -t tree.nwk -i table.tsv -m weighted_normalized -o out.tsv
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/unifrac"
)

func main() {
	treePath := flag.String("t", "", "Newick tree")
	tablePath := flag.String("i", "", "table of sample, tip, count lines")
	method := flag.String("m", "weighted_normalized", "method")
	alpha := flag.Float64("a", 1, "generalized alpha")
	outPath := flag.String("o", "", "output TSV")
	verbose := flag.Bool("v", false, "phase timings on stderr")
	prof := flag.String("cpuprofile", "", "write a CPU profile")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			log.Fatal(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	t0 := time.Now()
	phase := func(name string) {
		if *verbose {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			fmt.Fprintf(os.Stderr, "%-8s %6.3fs  heap in use %4d MB, from the OS %4d MB\n",
				name, time.Since(t0).Seconds(), ms.HeapInuse>>20, ms.Sys>>20)
		}
	}
	m := map[string]unifrac.Method{
		"weighted_normalized":   unifrac.WeightedNormalized,
		"weighted_unnormalized": unifrac.WeightedUnnormalized,
		"unweighted":            unifrac.Unweighted,
		"generalized":           unifrac.Generalized,
	}
	meth, ok := m[*method]
	if !ok {
		log.Fatalf("unknown method %q", *method)
	}
	tr, err := readNewick(*treePath)
	if err != nil {
		log.Fatal(err)
	}
	phase("tree")
	tab, err := readTable(*tablePath, tr)
	if err != nil {
		log.Fatal(err)
	}
	debug.FreeOSMemory() // the table's text
	phase("table")
	e, err := unifrac.New(tr, tab, meth, &unifrac.Options{Alpha: *alpha})
	if err != nil {
		log.Fatal(err)
	}
	phase("prepare")
	if *verbose {
		fmt.Fprintf(os.Stderr, "engine   %d MB, %d MB per worker\n", e.Bytes()>>20, e.BytesPerWorker()>>20)
	}
	ids := tab.IDs
	// The table and the preparation's buffers are garbage from here: give
	// their memory back before the matrix is allocated, rather than let
	// the heap grow past them.
	tab = nil
	debug.FreeOSMemory()
	phase("free")
	n := e.Len()
	d := make([]float64, n*(n-1)/2)
	if err := e.Condensed(context.Background(), d); err != nil {
		log.Fatal(err)
	}
	e = nil
	phase("compute")
	if err := write(*outPath, ids, d); err != nil {
		log.Fatal(err)
	}
	phase("write")
}

// write writes the matrix, formatting groups of rows in parallel.
func write(path string, ids []string, d []float64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for _, id := range ids {
		w.WriteByte('\t')
		w.WriteString(id)
	}
	w.WriteByte('\n')
	n := len(ids)
	const group = 64
	workers := runtime.GOMAXPROCS(0)
	bufs := make([][]byte, group)
	for g := 0; g < n; g += group {
		hi := min(g+group, n)
		parallel.For(hi-g, workers, 1, func(lo, up int) {
			for r := lo; r < up; r++ {
				i := g + r
				b := append(bufs[r][:0], ids[i]...)
				for j := range n {
					b = append(b, '\t')
					switch {
					case j == i:
						b = append(b, '0')
					case j < i:
						b = appendG16(b, d[j*n-j*(j+1)/2+i-j-1])
					default:
						b = appendG16(b, d[i*n-i*(i+1)/2+j-i-1])
					}
				}
				bufs[r] = append(b, '\n')
			}
		})
		for r := range hi - g {
			w.Write(bufs[r])
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// pow10 holds 10^k for k in [0, 19].
var pow10 = func() (p [20]float64) {
	p[0] = 1
	for k := 1; k < 20; k++ {
		p[k] = p[k-1] * 10
	}
	return
}()

const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// appendG16 appends x with 16 significant digits as %.16g spells it. For x
// in [1e-4, 1) (every normalized distance but the smallest) it scales x to
// a 16-digit integer: the last digit may differ by one or two from
// correct rounding (a relative error under 3e-16); other values go to
// strconv.
func appendG16(b []byte, x float64) []byte {
	if x == 0 {
		return append(b, '0')
	}
	if !(x >= 1e-4 && x < 1) {
		return strconv.AppendFloat(b, x, 'g', 16, 64)
	}
	k := 1 // x in [10^-k, 10^(1-k))
	for x < 1/pow10[k] {
		k++
	}
	m := uint64(x*pow10[15+k] + 0.5)
	if m >= 1e16 || m < 1e15 {
		return strconv.AppendFloat(b, x, 'g', 16, 64)
	}
	for m%10 == 0 {
		m /= 10
	}
	var buf [16]byte
	i := len(buf)
	for m >= 100 {
		r := m % 100
		m /= 100
		i -= 2
		buf[i], buf[i+1] = digitPairs[2*r], digitPairs[2*r+1]
	}
	if m >= 10 {
		i -= 2
		buf[i], buf[i+1] = digitPairs[2*m], digitPairs[2*m+1]
	} else {
		i--
		buf[i] = byte('0' + m)
	}
	b = append(b, '0', '.')
	for range k - 1 {
		b = append(b, '0')
	}
	return append(b, buf[i:]...)
}

// readTable reads "sample<TAB>tip<TAB>count" lines, samples in contiguous
// runs, parsing pieces of the file in parallel (cut at sample boundaries).
func readTable(path string, t *tree.Tree) (*unifrac.Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	index := make(map[string]int32, t.Len())
	for i, name := range t.Names() {
		index[name] = int32(i)
	}
	workers := runtime.GOMAXPROCS(0)
	cuts := []int{0}
	for p := 1; p < workers; p++ {
		c := max(len(data)*p/workers, cuts[len(cuts)-1])
		// Move to the start of the next sample's first line.
		for c < len(data) && c > 0 && data[c-1] != '\n' {
			c++
		}
		for c < len(data) {
			nl := bytes.IndexByte(data[c:], '\n')
			if nl < 0 {
				c = len(data)
				break
			}
			prev := c
			for prev > 1 && data[prev-2] != '\n' {
				prev--
			}
			if prev == 0 || c == 0 {
				break
			}
			ta, tb := bytes.IndexByte(data[prev-1:], '\t'), bytes.IndexByte(data[c:], '\t')
			if !bytes.Equal(data[prev-1:prev-1+ta], data[c:c+tb]) {
				break
			}
			c += nl + 1
		}
		cuts = append(cuts, c)
	}
	cuts = append(cuts, len(data))
	parts := make([]*unifrac.Table, workers)
	errs := make([]error, workers)
	parallel.Each(workers, workers, func(p int) {
		parts[p], errs[p] = parseTable(path, data[cuts[p]:cuts[p+1]], index)
	})
	tab := &unifrac.Table{Indptr: []int{0}}
	for p, part := range parts {
		if errs[p] != nil {
			return nil, errs[p]
		}
		base := len(tab.Indices)
		tab.IDs = append(tab.IDs, part.IDs...)
		for _, x := range part.Indptr[1:] {
			tab.Indptr = append(tab.Indptr, base+x)
		}
		tab.Indices = append(tab.Indices, part.Indices...)
		tab.Values = append(tab.Values, part.Values...)
	}
	return tab, nil
}

func parseTable(path string, data []byte, index map[string]int32) (*unifrac.Table, error) {
	lines := bytes.Count(data, []byte{'\n'}) + 1
	tab := &unifrac.Table{Indptr: []int{0}, Indices: make([]int32, 0, lines), Values: make([]float64, 0, lines)}
	var last []byte
	for len(data) > 0 {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			nl = len(data)
		}
		line := data[:nl]
		data = data[min(nl+1, len(data)):]
		if len(line) == 0 {
			continue
		}
		a := bytes.IndexByte(line, '\t')
		b := a + 1 + bytes.IndexByte(line[a+1:], '\t')
		if a < 0 || b <= a {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		if last == nil || !bytes.Equal(last, line[:a]) {
			if last != nil {
				tab.Indptr = append(tab.Indptr, len(tab.Indices))
			}
			last = line[:a]
			tab.IDs = append(tab.IDs, string(last))
		}
		i, ok := index[string(line[a+1:b])]
		if !ok {
			return nil, fmt.Errorf("%s: unknown tip %q", path, line[a+1:b])
		}
		c, err := parseCount(line[b+1:])
		if err != nil {
			return nil, err
		}
		tab.Indices = append(tab.Indices, i)
		tab.Values = append(tab.Values, c)
	}
	if last != nil {
		tab.Indptr = append(tab.Indptr, len(tab.Indices))
	}
	return tab, nil
}

// parseCount parses a count: digits only by a fast path, else strconv.
func parseCount(b []byte) (float64, error) {
	if len(b) > 0 && len(b) < 16 {
		var v uint64
		ok := true
		for _, c := range b {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			v = v*10 + uint64(c-'0')
		}
		if ok {
			return float64(v), nil
		}
	}
	return strconv.ParseFloat(string(b), 64)
}

// readNewick reads a one-line Newick tree with branch lengths (no quoting or
// comments), naming unnamed internal nodes "_iN".
func readNewick(path string) (*tree.Tree, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := string(bytes.TrimSuffix(bytes.TrimSpace(data), []byte(";")))
	type edge struct {
		name string
		w    float64
	}
	var b tree.Builder
	var stack []int
	var kids [][]edge
	anon, pos := 0, 0
	stop := func(c byte, colon bool) bool {
		return c == '(' || c == ')' || c == ',' || (colon && c == ':')
	}
	label := func() (edge, error) {
		start := pos
		for pos < len(s) && !stop(s[pos], true) {
			pos++
		}
		e := edge{name: s[start:pos]}
		if pos < len(s) && s[pos] == ':' {
			pos++
			start = pos
			for pos < len(s) && !stop(s[pos], false) {
				pos++
			}
			var err error
			if e.w, err = strconv.ParseFloat(s[start:pos], 64); err != nil {
				return e, err
			}
		}
		if e.name == "" {
			anon++
			e.name = "_i" + strconv.Itoa(anon)
		}
		return e, nil
	}
	var last edge
	for pos < len(s) {
		switch s[pos] {
		case '(':
			stack = append(stack, len(kids))
			kids = append(kids, nil)
			pos++
		case ',':
			top := stack[len(stack)-1]
			kids[top] = append(kids[top], last)
			pos++
		case ')':
			top := stack[len(stack)-1]
			kids[top] = append(kids[top], last)
			stack = stack[:len(stack)-1]
			pos++
			e, err := label()
			if err != nil {
				return nil, err
			}
			for _, k := range kids[top] {
				b.AddEdge(e.name, k.name, k.w)
			}
			kids = kids[:top]
			last = e
		default:
			e, err := label()
			if err != nil {
				return nil, err
			}
			last = e
		}
	}
	if len(stack) != 0 {
		return nil, fmt.Errorf("%s: unbalanced parentheses", path)
	}
	b.AddNode(last.name)
	return b.Build(nil)
}
