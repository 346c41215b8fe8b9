package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
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
	"github.com/twl-ldl/twl/internal/qza"
	"github.com/twl-ldl/twl/newick"
	"github.com/twl-ldl/twl/unifrac"
)

func runUnifrac(e *env, args []string) (err error) {
	if len(args) > 0 && args[0] == "merge" {
		return runUnifracMerge(e, args[1:])
	}
	fs := newFlags("unifrac", "twl unifrac --tree T.nwk --table T.biom --method M --out D.tsv [flags]\n  twl unifrac merge PART... --out D.tsv")
	treePath := fs.String("tree", "", "the phylogeny: Newick or QIIME 2 .qza `FILE`")
	tablePath := fs.String("table", "", "the table of counts: BIOM (HDF5 or JSON), TSV or .qza `FILE`")
	method := fs.String("method", "", "the UniFrac `variant`: "+unifrac.MethodNames())
	alpha := fs.Float64("alpha", 1, "the exponent of --method generalized, in [0, 1]")
	vaw := fs.Bool("variance-adjusted", false, "variance-adjusted UniFrac: divide each branch's term by the standard deviation of the pair's counts below it (Chang et al. 2011; ssu --vaw)")
	bypass := fs.Bool("bypass-tips", false, "leave out the branches above the tips of the tree pruned to the table (ssu -f, an approximation)")
	absolute := fs.Bool("absolute", false, "absolute quantification: the counts as they are, not each sample's proportions (ssu --normalize-sample-counts false)")
	out := fs.OutFile("out", "write the matrix (or with --shard the partial file) to `FILE`; - for standard output (not npy); a name ending in .qza writes a QIIME 2 DistanceMatrix artifact")
	format := fs.String("format", "", "the matrix `format`, tsv, npy or hdf5 (default: npy for an --out ending in .npy, hdf5 for .h5 or .hdf5, else tsv)")
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
	j := &unifracJob{fs: fs, treePath: *treePath, tablePath: *tablePath, method: meth,
		methodWord: methodWord(meth, *vaw, *bypass, *absolute, false),
		alphaWord:  "-", out: *out, workers: *workers, maxMem: int64(maxMem), readMax: fs.maxMemory(), pc: pc, name: "twl unifrac"}
	j.opts.VarianceAdjusted, j.opts.BypassTips, j.opts.Raw = *vaw, *bypass, *absolute
	if meth == unifrac.Generalized {
		if !(*alpha >= 0 && *alpha <= 1) { // also NaN
			return fs.fail("--alpha %v: the exponent of generalized UniFrac is in [0, 1]", *alpha)
		}
		j.alphaWord = strconv.FormatFloat(*alpha, 'g', -1, 64)
	} else if fs.isSet("alpha") {
		return fs.fail("--alpha is the exponent of --method generalized, not of %s", *method)
	}
	j.opts.Alpha = *alpha
	if *shard != "" {
		if j.shardI, j.shardN, err = distmat.ParseShard(*shard); err != nil {
			return fs.fail("--shard %v", err)
		}
		if *format != "" {
			return fs.fail("--format is the format of the merged matrix: give it to 'twl unifrac merge'")
		}
		if pc.enabled() {
			return fs.fail("--pcoa needs the whole matrix: run it without --shard")
		}
	}
	j.qza = isQZA(*out) && j.shardN == 0
	if j.format, err = unifracFormat(fs, *format, *out, j.qza); err != nil {
		return err
	}
	return runUnifracJob(e, j)
}

// unifracJob is one run of the UniFrac engine: that of twl unifrac, or of
// its ssu command line.
type unifracJob struct {
	fs                  *flags // for usage errors
	name                string // the command, for the progress line
	treePath, tablePath string
	method              unifrac.Method
	opts                unifrac.Options // Alpha, Raw and the like; Workers and Progress are set by the run
	methodWord          string          // the method of a partial file's header
	alphaWord           string          // its alpha, or "-"
	out                 string
	format              distmat.Format
	qza                 bool // out is a QIIME 2 DistanceMatrix artifact (TSV inside)
	fp32                bool // distances rounded to float32 (ssu's _fp32 methods)
	workers             int
	maxMem              int64
	readMax             int64 // the limit of reading the tree and the table (biom and newick Options.MaxBytes)
	// A partial file: shard shardI of shardN (twl unifrac --shard), or
	// with rows set the rows it returns for N samples (ssu's stripes).
	shardI, shardN int
	rows           func(n int) (lo, hi int, err error)
	pc             *pcoaFlags // twl unifrac's --pcoa, or nil
	h5pcoa         int        // PCoA axes written in an HDF5 matrix (ssu --pcoa)
	ssu            bool       // ssu's command line: no progress lines (ssu shows none), its options' names in messages
	// Rarefaction before computing (ssu --subsample-depth): depth 0 for
	// none.
	depth   int64
	replace bool
	seed    uint64
}

func (j *unifracJob) partial() bool { return j.shardN > 0 || j.rows != nil }

// checkFiles refuses an output that is an input or another output
// (atomicfile.Files), before anything is read or written: twl unifrac's
// as a mistake on its command line (status 2), ssu's as ssu's errors
// (status 1), its options' names in the message.
func (j *unifracJob) checkFiles(pc *pcoaFlags) error {
	if j.ssu {
		files := new(atomicfile.Files)
		files.Input("-t", j.treePath)
		files.Input("-i", j.tablePath)
		files.Output("-o", j.out)
		return checkCompatFiles(files)
	}
	files := j.fs.files()
	files.Input("--tree", j.treePath)
	files.Input("--table", j.tablePath)
	if !j.partial() {
		matrixFiles(files, j.out, j.format)
	}
	pc.addFiles(files, j.out)
	return j.fs.checkFiles(files)
}

// methodWord returns the method of a partial file's header: its name and
// the options that change its values, so that only parts of one
// computation merge ("unweighted+bypass-tips+fp32").
func methodWord(m unifrac.Method, vaw, bypass, absolute, fp32 bool) string {
	word := m.String()
	for _, o := range []struct {
		on   bool
		name string
	}{{vaw, "variance-adjusted"}, {bypass, "bypass-tips"}, {absolute, "absolute"}, {fp32, "fp32"}} {
		if o.on {
			word += "+" + o.name
		}
	}
	return word
}

// isQZA reports whether the output file name is a QIIME 2 artifact's.
func isQZA(name string) bool { return strings.EqualFold(filepath.Ext(name), ".qza") }

// runUnifracJob reads the tree and table, computes the distances and
// writes the matrix (or partial file, or artifact) and the PCoA asked for.
func runUnifracJob(e *env, j *unifracJob) error {
	gc := startLazyGC()
	defer gc.stop()
	fs, pc := j.fs, j.pc
	if pc == nil {
		pc = &pcoaFlags{fs: fs}
	}
	if !j.ssu {
		gc.maxMemory(j.maxMem)
	}
	if err := j.checkFiles(pc); err != nil {
		return err
	}
	// The outputs first: an unwritable destination fails before any work.
	for _, o := range pc.outputs(j.out) {
		if err := atomicfile.CheckWritable(o); err != nil { // also the derived name of the PCoA table
			return err
		}
	}
	w, ids, err := unifracCreate(e, fs, j.out, j.format, j.partial())
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
		bt, tableErr = biom.ReadFile(j.tablePath, &biom.Options{MaxBytes: j.readMax})
	}()
	tr, err := newick.ReadFile(j.treePath, &newick.Options{MaxBytes: j.readMax})
	<-tableRead
	if err != nil {
		return err
	}
	if tableErr != nil {
		return tableErr
	}
	if j.depth > 0 {
		if bt, err = subsampleTable(bt, j); err != nil {
			return err
		}
	}
	tab, err := unifrac.TableOf(tr, bt)
	var me *unifrac.MissingTipsError
	switch {
	case errors.As(err, &me):
		return fmt.Errorf("table %s: %s not tips of tree %s: %s (ssu refuses them too)", j.tablePath, me.What(), j.treePath, me.List())
	case err != nil:
		return fmt.Errorf("table %s: %w", j.tablePath, err)
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
		return fmt.Errorf("table %s: %w", j.tablePath, err)
	}
	if err := pc.check(tab.IDs); err != nil {
		return err
	}
	n := tab.Len()
	if j.h5pcoa > 0 && n < 2 {
		return fmt.Errorf("table %s: a PCoA needs at least 2 samples, the table has %d (--pcoa 0 writes none)", j.tablePath, n)
	}
	lo, hi := 0, n
	switch {
	case j.rows != nil:
		if lo, hi, err = j.rows(n); err != nil {
			return err
		}
	case j.shardN > 0:
		lo, hi = distmat.Stripe(j.shardI, j.shardN, n, unifrac.RowBlock())
	}
	var head *distmat.Header // a partial file's
	if j.partial() {
		head = &distmat.Header{Tree: tr.Hash(), Table: unifrac.TableHash(tr, tab), Method: j.methodWord, Alpha: j.alphaWord,
			N: n, IDHash: distmat.HashIDs(tab.IDs), Lo: lo, Hi: hi, Shard: j.shardI, Shards: j.shardN}
	}
	var progOut io.Writer = e.stderr
	if j.ssu {
		progOut = io.Discard
	}
	p := newProgress(progOut, j.name, "pairs")
	done := 0 // pairs of the stripes before the current one
	stripe := 0
	opts := j.opts
	opts.Workers = j.workers
	opts.Progress = func(d, t int) { p.tick(done + int(int64(d)*int64(stripe*n)/int64(t))) }
	eng, err := unifrac.New(tr, tab, j.method, &opts)
	if errors.Is(err, unifrac.ErrUnderflow) {
		return fmt.Errorf("tree %s and table %s: %s", j.treePath, j.tablePath, strings.TrimPrefix(err.Error(), "unifrac: "))
	}
	if err != nil {
		return fmt.Errorf("table %s: %w", j.tablePath, err)
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
	maxMem := j.maxMem
	var full []float64 // the whole matrix, for --pcoa
	if pc.enabled() || j.h5pcoa > 0 {
		need := int64(n) * distmat.RowBytes(n)
		if need > maxMem-eng.Bytes() {
			return fmt.Errorf("--pcoa holds the %d×%d matrix, %s, and the engine %s: more than --max-memory %s",
				n, n, formatBytes(float64(need)), formatBytes(float64(eng.Bytes())), byteSize(maxMem))
		}
		full = make([]float64, n*n)
		maxMem -= need
	}
	stripe, err = unifracStripe(eng, n, hi-lo, j.workers, maxMem)
	if err != nil {
		return err
	}
	// The matrix goes to w, or into an artifact on w.
	var dst io.Writer = w
	var art *qza.Writer
	if j.qza {
		if art, err = qza.NewWriter(w, qza.DistanceMatrix, &qza.Options{Tool: versionLine(), Citations: unifracCitations}); err != nil {
			return err
		}
		dst = art
	}
	var mw *distmat.Writer
	newWriter := func(text int64, pcoa *distmat.PCoA) error {
		var err error
		if j.partial() {
			mw, err = distmat.NewPartWriter(dst, head, names)
		} else {
			mw, err = distmat.NewWriter(dst, j.format, names, &distmat.Options{Workers: j.workers, MaxBytes: text, Float32: j.fp32, PCoA: pcoa})
		}
		return err
	}
	// WriteCondensed's text may take what a stripe's rows would, less the
	// pairs' values.
	text := max(int64(stripe)*distmat.RowBytes(n)-4*int64(n)*int64(n-1), 1)
	if j.h5pcoa == 0 { // else the PCoA comes first, from the whole matrix
		if err := newWriter(text, nil); err != nil {
			return err
		}
	}
	var cond []float64
	if !j.partial() && int64(n-1)/2 <= int64(stripe) {
		// All pairs fit in less memory than a stripe of rows takes: compute
		// each pair once, then write the rows from them.
		cond = make([]float64, n*(n-1)/2)
		s := stripe
		stripe = n // for the progress: the whole matrix
		if err := eng.Condensed(e.ctx, cond); err != nil {
			return err
		}
		if j.fp32 {
			round32(cond)
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
		} else {
			if err := eng.Rows(e.ctx, buf[:stripe*n], r, r+stripe); err != nil {
				return err
			}
			if j.fp32 {
				round32(buf[:stripe*n])
			}
		}
		if mw != nil {
			if err := mw.WriteRows(buf[:stripe*n]); err != nil {
				return err
			}
		}
		if full != nil {
			copy(full[r*n:], buf[:stripe*n])
		}
		done += stripe * n
		if err := e.stopped(); err != nil {
			return err
		}
	}
	if j.h5pcoa > 0 {
		pcoa, err := h5PCoA(e, names, full, j.h5pcoa)
		if err != nil {
			return err
		}
		if err := newWriter(text, pcoa); err != nil {
			return err
		}
		if err := mw.WriteRows(full); err != nil {
			return err
		}
	}
	if err := mw.Close(); err != nil {
		return err
	}
	if art != nil {
		if err := art.Close(); err != nil {
			return err
		}
	}
	// All is computed before anything is written: a failed output then
	// takes back the files this run wrote before it.
	var pcoa *pcoaFiles
	if pc.enabled() {
		pc.title = j.method.String() + " UniFrac, " + j.tablePath
		if j.opts.VarianceAdjusted {
			pc.title = "variance-adjusted " + pc.title
		}
		if pcoa, err = pc.compute(e, names, full); err != nil {
			return err
		}
	}
	if err := unifracCommit(w, ids, names); err != nil {
		return err
	}
	if pcoa != nil {
		if err := pc.commit(e, pcoa); err != nil {
			removeWritten(j.out)
			if j.format == distmat.NPY {
				removeWritten(distmat.IDsPath(j.out))
			}
			return err
		}
	}
	p.done(done)
	return nil
}

// round32 rounds each value to the nearest float32.
func round32(v []float64) {
	for i, x := range v {
		v[i] = float64(float32(x))
	}
}

// unifracCitations is the BibTeX of a UniFrac artifact's provenance.
const unifracCitations = `@article{lozupone2005unifrac,
 author = {Lozupone, Catherine and Knight, Rob},
 title = {UniFrac: a new phylogenetic method for comparing microbial communities},
 journal = {Applied and Environmental Microbiology},
 volume = {71},
 number = {12},
 pages = {8228--8235},
 year = {2005},
 doi = {10.1128/AEM.71.12.8228-8235.2005}
}
`

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

// unifracFormat returns the matrix format of --format, or of --out's
// name; an artifact (qza) holds TSV.
func unifracFormat(fs *flags, format, out string, qza bool) (distmat.Format, error) {
	if format == "" {
		if qza {
			return distmat.TSV, nil
		}
		return distmat.FormatOf(out), nil
	}
	f, err := distmat.ParseFormat(format)
	if err != nil {
		return 0, fs.fail("--format %q: tsv, npy or hdf5", format)
	}
	if qza && f != distmat.TSV {
		return 0, fs.fail("--format %s: a QIIME 2 artifact (--out %s) holds the matrix as tsv", format, out)
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
	fs := newFlags("unifrac merge", "twl unifrac merge PART... --out D.tsv [--format tsv|npy|hdf5]")
	out := fs.OutFile("out", "write the matrix to `FILE`; - for standard output (not npy); a name ending in .qza writes a QIIME 2 DistanceMatrix artifact")
	format := fs.String("format", "", "the matrix `format`, tsv, npy or hdf5 (default: npy for an --out ending in .npy, hdf5 for .h5 or .hdf5, else tsv)")
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
	qz := isQZA(*out)
	f, err := unifracFormat(fs, *format, *out, qz)
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
	if err := mergeTo(e, w, f, parts, &distmat.Options{Workers: *workers}, qz); err != nil {
		return err
	}
	return unifracCommit(w, ids, parts[0].IDs)
}

// mergeTo merges the parts into a matrix of format f on w, or into a
// QIIME 2 artifact on w.
func mergeTo(e *env, w io.Writer, f distmat.Format, parts []*distmat.Part, opts *distmat.Options, qz bool) error {
	var art *qza.Writer
	if qz {
		var err error
		if art, err = qza.NewWriter(w, qza.DistanceMatrix, &qza.Options{Tool: versionLine(), Citations: unifracCitations}); err != nil {
			return err
		}
		w = art
	}
	if err := distmat.Merge(e.ctx, w, f, parts, opts); err != nil {
		return err
	}
	if art != nil {
		return art.Close()
	}
	return nil
}
