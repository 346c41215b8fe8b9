package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/distmat"
	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/internal/hugepage"
	"github.com/twl-ldl/twl/newick"
	"github.com/twl-ldl/twl/unifrac"
)

func runUnifrac(e *env, args []string) (err error) {
	if len(args) > 0 && args[0] == "merge" {
		return runUnifracMerge(e, args[1:])
	}
	gc := startLazyGC()
	defer gc.stop()
	fs := newFlags("unifrac", "twl unifrac --tree T.nwk --table T.biom --method M --out D.tsv [flags]\n  twl unifrac merge PART... --out D.tsv")
	treePath := fs.String("tree", "", "the phylogeny: Newick or QIIME 2 .qza `FILE`")
	tablePath := fs.String("table", "", "the table of counts: BIOM (HDF5 or JSON), TSV or .qza `FILE`")
	method := fs.String("method", "", "the UniFrac `variant`: "+unifrac.MethodNames())
	alpha := fs.Float64("alpha", 1, "the exponent of --method generalized, in [0, 1]")
	out := fs.OutFile("out", "write the matrix (or with --shard the partial file) to `FILE`; - for standard output (tsv only)")
	format := fs.String("format", "", "the matrix `format`, tsv or npy (default: npy for an --out ending in .npy, else tsv)")
	shard := fs.String("shard", "", "compute only row stripe `I/N` of the matrix into a partial file, for 'twl unifrac merge'")
	maxMemFlag := fs.maxMemoryFlag(4<<30, "refuse to run if reading the tree or the table, or the engine and a stripe of rows, need more than `SIZE`")
	workers := fs.Int("workers", 0, "goroutines that compute and format (0: all cores); the output does not depend on it")
	pc := addPCoAFlags(fs)
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	maxMem := *maxMemFlag
	defer func() { err = memErr(err, maxMem) }()
	gc.maxMemory(int64(maxMem))
	if err := pc.checkFlags(); err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return fs.fail("unexpected argument %q", pos[0])
	case *treePath == "" || *tablePath == "" || *out == "":
		return fs.fail("--tree, --table and --out are required")
	case *method == "":
		return fs.fail("--method is required (available: %s)", unifrac.MethodNames())
	case *workers < 0:
		return fs.fail("--workers %d is negative", *workers)
	}
	meth, err := unifrac.ParseMethod(*method)
	if err != nil {
		return fs.fail("unknown --method %q (available: %s)", *method, unifrac.MethodNames())
	}
	alphaWord := "-"
	if meth == unifrac.Generalized {
		if !(*alpha >= 0 && *alpha <= 1) { // also NaN
			return fs.fail("--alpha %v: the exponent of generalized UniFrac is in [0, 1]", *alpha)
		}
		alphaWord = strconv.FormatFloat(*alpha, 'g', -1, 64)
	} else if fs.isSet("alpha") {
		return fs.fail("--alpha is the exponent of --method generalized, not of %s", *method)
	}
	shardI, shardN := 0, 0
	if *shard != "" {
		if shardI, shardN, err = distmat.ParseShard(*shard); err != nil {
			return fs.fail("--shard %v", err)
		}
		if *format != "" {
			return fs.fail("--format is the format of the merged matrix: give it to 'twl unifrac merge'")
		}
		if pc.enabled() {
			return fs.fail("--pcoa needs the whole matrix: run it without --shard")
		}
	}
	f, err := unifracFormat(fs, *format, *out)
	if err != nil {
		return err
	}
	files := fs.files()
	files.Input("--tree", *treePath)
	files.Input("--table", *tablePath)
	if shardN == 0 {
		matrixFiles(files, *out, f)
	}
	pc.addFiles(files, *out)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	// The outputs first: an unwritable destination fails before any work.
	for _, o := range pc.outputs(*out) {
		if err := atomicfile.CheckWritable(o); err != nil { // also the derived name of the PCoA table
			return err
		}
	}
	w, ids, err := unifracCreate(e, fs, *out, f, shardN > 0)
	if err != nil {
		return err
	}
	defer w.Abort()
	defer ids.Abort()

	// The table is read while the tree is; the tree's error comes first.
	var bt *biom.Table
	var tableErr error
	tableRead := make(chan struct{})
	go func() {
		defer close(tableRead)
		bt, tableErr = biom.ReadFile(*tablePath, &biom.Options{MaxBytes: fs.maxMemory()})
	}()
	tr, err := newick.ReadFile(*treePath, &newick.Options{MaxBytes: fs.maxMemory()})
	<-tableRead
	if err != nil {
		return err
	}
	if tableErr != nil {
		return tableErr
	}
	tab, err := unifrac.TableOf(tr, bt)
	var me *unifrac.MissingTipsError
	switch {
	case errors.As(err, &me):
		return fmt.Errorf("table %s: %s not tips of tree %s: %s (ssu refuses them too)", *tablePath, me.What(), *treePath, me.List())
	case err != nil:
		return fmt.Errorf("table %s: %w", *tablePath, err)
	}
	bt = nil // the file's copy of the table is garbage: freed before the engine is built
	if m := tab.Len(); 4*int64(m)*int64(m-1) >= lazyHeap/2 {
		// The pairs alone take half of lazyHeap or more: a large run.
		gc.turnOn()
	}
	if gc.big() {
		debug.FreeOSMemory()
	} else {
		// The engine is built in the memory the file's table took, not in
		// fresh pages.
		runtime.GC()
	}
	if err := distmat.CheckIDs(tab.IDs); err != nil {
		return fmt.Errorf("table %s: %w", *tablePath, err)
	}
	if err := pc.check(tab.IDs); err != nil {
		return err
	}
	n := tab.Len()
	lo, hi := 0, n
	if shardN > 0 {
		lo, hi = distmat.Stripe(shardI, shardN, n, unifrac.RowBlock())
	}
	var head *distmat.Header // a partial file's
	if shardN > 0 {
		head = &distmat.Header{Tree: tr.Hash(), Table: unifrac.TableHash(tr, tab), Method: meth.String(), Alpha: alphaWord,
			N: n, IDHash: distmat.HashIDs(tab.IDs), Lo: lo, Hi: hi, Shard: shardI, Shards: shardN}
	}
	p := newProgress(e.stderr, "twl unifrac", "pairs")
	done := 0 // pairs of the stripes before the current one
	stripe := 0
	eng, err := unifrac.New(tr, tab, meth, &unifrac.Options{Alpha: *alpha, Workers: *workers,
		Progress: func(d, t int) { p.tick(done + int(int64(d)*int64(stripe*n)/int64(t))) }})
	if errors.Is(err, unifrac.ErrUnderflow) {
		return fmt.Errorf("tree %s and table %s: %s", *treePath, *tablePath, strings.TrimPrefix(err.Error(), "unifrac: "))
	}
	if err != nil {
		return fmt.Errorf("table %s: %w", *tablePath, err)
	}
	// The engine holds what the pairs need: past this point the tree and
	// the counts are garbage, and their memory serves the matrix and its
	// text.
	names := tab.IDs
	// The preparation's buffers are garbage now: give their memory back
	// before the stripes, so the peak is the engine's.
	if gc.big() {
		debug.FreeOSMemory()
	}
	var full []float64 // the whole matrix, for --pcoa
	if pc.enabled() {
		need := int64(n) * distmat.RowBytes(n)
		if need > int64(maxMem)-eng.Bytes() {
			return fmt.Errorf("--pcoa holds the %d×%d matrix, %s, and the engine %s: more than --max-memory %s",
				n, n, formatBytes(float64(need)), formatBytes(float64(eng.Bytes())), byteSize(maxMem))
		}
		full = make([]float64, n*n)
		maxMem -= byteSize(need)
	}
	stripe, err = unifracStripe(eng, n, hi-lo, *workers, int64(maxMem))
	if err != nil {
		return err
	}
	var mw *distmat.Writer
	if shardN > 0 {
		mw, err = distmat.NewPartWriter(w, head, names)
	} else {
		// WriteCondensed's text may take what a stripe's rows would,
		// less the pairs' values.
		text := max(int64(stripe)*distmat.RowBytes(n)-4*int64(n)*int64(n-1), 1)
		mw, err = distmat.NewWriter(w, f, names, &distmat.Options{Workers: *workers, MaxBytes: text})
	}
	if err != nil {
		return err
	}
	var cond []float64
	if shardN == 0 && int64(n-1)/2 <= int64(stripe) {
		// All pairs fit in less memory than a stripe of rows takes: compute
		// each pair once, then write the rows from them.
		cond = make([]float64, n*(n-1)/2)
		s := stripe
		stripe = n // for the progress: the whole matrix
		if err := eng.Condensed(e.ctx, cond); err != nil {
			return err
		}
		stripe = min(s, unifrac.RowBlock())
		if gc.big() {
			// The memory freed since the engine was built goes back
			// before the text is made, so the peak stays the live data's.
			debug.FreeOSMemory()
		}
	}
	if cond != nil && full == nil {
		// Each pair's text is formatted once, and lines are written while
		// later ones are formatted.
		if err := mw.WriteCondensed(e.ctx, cond); err != nil {
			return err
		}
		done, lo = n*n, hi
	}
	var buf []float64
	if lo < hi {
		buf = make([]float64, stripe*n)
	}
	for r := lo; r < hi; r += stripe {
		stripe = min(stripe, hi-r)
		if cond != nil {
			distmat.ExpandRows(buf[:stripe*n], cond, n, r, r+stripe)
		} else if err := eng.Rows(e.ctx, buf[:stripe*n], r, r+stripe); err != nil {
			return err
		}
		if err := mw.WriteRows(buf[:stripe*n]); err != nil {
			return err
		}
		if full != nil {
			copy(full[r*n:], buf[:stripe*n])
		}
		done += stripe * n
		if err := e.stopped(); err != nil {
			return err
		}
	}
	if err := mw.Close(); err != nil {
		return err
	}
	// All is computed before anything is written: a failed output then
	// takes back the files this run wrote before it.
	var pcoa *pcoaFiles
	if pc.enabled() {
		pc.title = meth.String() + " UniFrac, " + *tablePath
		if pcoa, err = pc.compute(e, names, full); err != nil {
			return err
		}
	}
	if err := unifracCommit(w, ids, names); err != nil {
		return err
	}
	if pcoa != nil {
		if err := pc.commit(e, pcoa); err != nil {
			removeWritten(*out)
			if f == distmat.NPY {
				removeWritten(distmat.IDsPath(*out))
			}
			return err
		}
	}
	p.done(done)
	return nil
}

// lazyHeap is the heap below which twl unifrac does not collect garbage
// while the live data is small.
const lazyHeap = 32 << 20

// lazyGC sets the collector of twl unifrac. The engine is most of the
// live memory of a large run and is built once: a heap kept within 30% of
// the live data (Go's default lets it double) bounds the peak near the
// engine's size, for a few percent of time. A small run collects only when
// its heap reaches lazyHeap: Go's collector would otherwise run every
// megabyte or so while the inputs are read. So the collector is off, under
// a memory limit of lazyHeap, until the live data reaches lazyHeap/1.3;
// from then on the 30% rule holds, so the heap is never larger than either
// rule allows. A run whose pairs alone take half of lazyHeap turns the 30%
// rule on once it knows it. GOGC or GOMEMLIMIT, when set, are obeyed.
// Without them, the first lazyHeap bytes of heap are backed by huge pages
// where the system has them: most of a small run's memory is written once,
// and a page fault every 4 KiB would cost more than the work done in it.
type lazyGC struct {
	mu      sync.Mutex
	on      bool // the 30% rule (or GOGC) is in force
	stopped bool
	pct     int   // the GC percent to restore, or -2
	limit   int64 // the memory limit to restore, or -1
	ceiling int64 // the memory limit once the 30% rule is on: --max-memory, or none (math.MaxInt64)
	env     bool  // GOMEMLIMIT is set: its limit is obeyed
}

// startLazyGC sets the collector for a run; the caller calls stop at its
// end.
func startLazyGC() *lazyGC {
	g := &lazyGC{on: true, pct: -2, limit: -1, ceiling: math.MaxInt64}
	g.env = debug.SetMemoryLimit(-1) != math.MaxInt64 // GOMEMLIMIT
	switch {
	case os.Getenv("GOGC") != "":
	case g.env:
		g.pct = debug.SetGCPercent(30)
	default:
		g.on = false
		g.pct = debug.SetGCPercent(-1)
		// Reserved before the limit is set, which its allocation would
		// reach.
		hugepage.Reserve(lazyHeap)
		g.limit = debug.SetMemoryLimit(lazyHeap)
		g.watch()
	}
	return g
}

// maxMemory sets the runtime's memory limit, once the 30% rule is on (and
// now, if it is), to n bytes (--max-memory): a run that needs more than it
// estimated collects garbage harder as it nears n, instead of growing past
// it (minMemory at least). GOMEMLIMIT, when set, is obeyed instead.
func (g *lazyGC) maxMemory(n int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.env || n <= 0 {
		return
	}
	n = max(n, minMemory)
	g.ceiling = n
	if g.limit < 0 {
		g.limit = debug.SetMemoryLimit(-1) // restored by stop
	}
	if g.on {
		debug.SetMemoryLimit(n)
	} else {
		debug.SetMemoryLimit(min(lazyHeap, n))
	}
}

// watch calls collected after the next collection.
func (g *lazyGC) watch() {
	runtime.AddCleanup(new([64]byte), func(g *lazyGC) { g.collected() }, g)
}

// collected turns the 30% rule on once the live data is large, after a
// collection.
func (g *lazyGC) collected() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.on || g.stopped {
		return
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if live[0].Value.Kind() == metrics.KindUint64 && live[0].Value.Uint64()*13/10 < lazyHeap {
		g.watch()
		return
	}
	g.switchOn()
}

// turnOn puts the 30% rule in force now.
func (g *lazyGC) turnOn() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.on && !g.stopped {
		g.switchOn()
	}
}

// switchOn puts the 30% rule in force; g.mu is held.
func (g *lazyGC) switchOn() {
	g.on = true
	debug.SetGCPercent(30)
	debug.SetMemoryLimit(g.ceiling)
}

// big reports whether the 30% rule (or GOGC or GOMEMLIMIT) is in force:
// only then are forced collections worth their time.
func (g *lazyGC) big() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.on
}

// stop restores the collector's settings.
func (g *lazyGC) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = true
	if g.pct != -2 {
		debug.SetGCPercent(g.pct)
	}
	if g.limit >= 0 {
		debug.SetMemoryLimit(g.limit)
	}
}

// unifracStripe returns the rows per stripe (distmat.StripeRows), or the
// error of --max-memory with what the run would need.
func unifracStripe(eng *unifrac.Engine, n, rows, workers int, maxMem int64) (int, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	fixed := eng.Bytes() + int64(workers)*eng.BytesPerWorker()
	s, least := distmat.StripeRows(n, rows, unifrac.RowBlock(), fixed, maxMem)
	if s == 0 {
		stripe := int64(least) * distmat.RowBytes(n)
		return 0, fmt.Errorf("%d samples need about %s (engine %s, a stripe of %d rows %s), more than --max-memory %s",
			n, formatBytes(float64(fixed+stripe)), formatBytes(float64(fixed)), least, formatBytes(float64(stripe)), byteSize(maxMem))
	}
	return s, nil
}

// unifracFormat returns the matrix format of --format, or of --out's name.
func unifracFormat(fs *flags, format, out string) (distmat.Format, error) {
	if format == "" {
		return distmat.FormatOf(out), nil
	}
	f, err := distmat.ParseFormat(format)
	if err != nil {
		return 0, fs.fail("--format %q: tsv or npy", format)
	}
	return f, nil
}

// unifracCreate creates the output and, for npy, the ids' sidecar; the
// caller aborts both unless committed. A partial file has no sidecar.
func unifracCreate(e *env, fs *flags, out string, f distmat.Format, partial bool) (*stream, *sidecar, error) {
	if !partial && f == distmat.NPY && (out == "-" || out == "") {
		return nil, nil, fs.fail("--format npy needs an --out file (its ids go beside it)")
	}
	w, err := e.create(out)
	if err != nil {
		return nil, nil, err
	}
	ids := &sidecar{}
	if !partial && f == distmat.NPY {
		if ids.f, err = atomicfile.Create(distmat.IDsPath(out), 0o644); err != nil {
			w.Abort()
			return nil, nil, err
		}
	}
	return w, ids, nil
}

// matrixFiles adds the ids' sidecar of an npy matrix written to out (not
// a partial file) to files, the overwrite check.
func matrixFiles(files *atomicfile.Files, out string, f distmat.Format) {
	if f == distmat.NPY && out != "-" && out != "" {
		files.Output("the ids of --out", distmat.IDsPath(out))
	}
}

// sidecar is the ids file of an npy matrix, or nothing.
type sidecar struct{ f *atomicfile.File }

func (s *sidecar) Abort() {
	if s.f != nil {
		s.f.Abort()
	}
}

// unifracCommit publishes the matrix and its sidecar, the ids names (the
// sidecar is removed if the matrix fails).
func unifracCommit(w *stream, ids *sidecar, names []string) error {
	if ids.f != nil {
		if err := distmat.WriteIDs(ids.f, names); err != nil {
			return err
		}
		if err := ids.f.Commit(); err != nil {
			return err
		}
	}
	if err := w.Commit(); err != nil {
		if ids.f != nil {
			removeWritten(ids.f.Name())
		}
		return err
	}
	return nil
}

func runUnifracMerge(e *env, args []string) error {
	fs := newFlags("unifrac merge", "twl unifrac merge PART... --out D.tsv [--format tsv|npy]")
	out := fs.OutFile("out", "write the matrix to `FILE`; - for standard output (tsv only)")
	format := fs.String("format", "", "the matrix `format`, tsv or npy (default: npy for an --out ending in .npy, else tsv)")
	workers := fs.Int("workers", 0, "goroutines that format (0: all cores); the output does not depend on it")
	names, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	switch {
	case len(names) == 0:
		return fs.fail("give the partial files to merge")
	case *out == "":
		return fs.fail("--out is required")
	case *workers < 0:
		return fs.fail("--workers %d is negative", *workers)
	}
	f, err := unifracFormat(fs, *format, *out)
	if err != nil {
		return err
	}
	files := fs.files()
	for _, name := range names {
		files.Input("the partial file", name)
	}
	matrixFiles(files, *out, f)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	w, ids, err := unifracCreate(e, fs, *out, f, false)
	if err != nil {
		return err
	}
	defer w.Abort()
	defer ids.Abort()
	var parts []*distmat.Part
	defer func() {
		for _, p := range parts {
			p.Close()
		}
	}()
	for _, name := range names {
		p, err := distmat.OpenPart(name)
		if err != nil {
			return err
		}
		parts = append(parts, p)
	}
	if err := distmat.Merge(e.ctx, w, f, parts, &distmat.Options{Workers: *workers}); err != nil {
		return err
	}
	return unifracCommit(w, ids, parts[0].IDs)
}
