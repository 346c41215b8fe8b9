package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/distmat"
	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/internal/fileerr"
	"github.com/twl-ldl/twl/ordination"
	"github.com/twl-ldl/twl/rarefaction"
	"github.com/twl-ldl/twl/unifrac"
)

// The command lines of Striped UniFrac's tools (unifrac-binaries 1.2 to
// 1.6: ssu and faithpd), which twl answers to under their names (a link
// named ssu or faithpd to the twl binary) or as twl ssu and twl faithpd.
// The flags are read as those tools read them, the computation is package
// unifrac's, and the outputs have the tools' layouts; docs/unifrac.md
// maps them flag by flag.
var compatCommands = []*command{
	{"ssu", "Striped UniFrac's command line: ssu's flags, modes, outputs and exit statuses", runSSU},
	{"faithpd", "Faith's phylogenetic diversity of every sample, with faithpd's command line", runFaithPD},
}

// compatOptions are the options of each compatible command line, and
// whether each takes a value.
var compatOptions = map[string]map[string]bool{"ssu": ssuOptions, "faithpd": faithpdOptions}

func lookupCompat(name string) *command {
	for _, c := range compatCommands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// compatError is a mistake in a compatible command line: its message
// points to --help. (The tools exit with status 1 for it, as for every
// error.)
type compatError struct{ msg string }

func (e *compatError) Error() string { return e.msg }

func compatUsage(format string, args ...any) error {
	return &compatError{msg: fmt.Sprintf(format, args...)}
}

// runCompat runs the compatible command c as prog ("ssu", or "twl ssu")
// and returns its exit status: 0 on success and for --help (and, as the
// tools do, when called without arguments: the help), 1 on any error, 130
// or 143 when stopped by a signal.
func runCompat(e *env, c *command, prog string, args []string) (status int) {
	e.prog = prog
	err := c.run(e, args)
	var ce *compatError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case e.ctx != nil && e.ctx.Err() != nil:
		var s *stopSignal
		if errors.As(context.Cause(e.ctx), &s) {
			fmt.Fprintf(e.stderr, "%s: %v; no file is left half-written\n", prog, s)
			return signalStatus(s.sig)
		}
		fmt.Fprintf(e.stderr, "%s: %v\n", prog, context.Cause(e.ctx))
		return 1
	case errors.As(err, &ce):
		fmt.Fprintf(e.stderr, "%s: %s\nsee '%s --help'\n", prog, ce.msg, prog)
		return 1
	default:
		fmt.Fprintf(e.stderr, "%s: %v\n", prog, compatMemErr(err))
		return 1
	}
}

// compatArgs are the arguments of a tool's command line, read as the tools
// read them: each option anywhere, an option with a value followed by it.
// Unlike the tools, an argument that is no option, an option given twice
// and a missing value are errors, not ignored.
type compatArgs struct {
	val map[string]string
	set map[string]bool
}

// parseCompat reads args against options, which map each option to
// whether it takes a value.
func parseCompat(args []string, options map[string]bool) (*compatArgs, error) {
	a := &compatArgs{val: map[string]string{}, set: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		o := args[i]
		takes, ok := options[o]
		if !ok {
			return nil, compatUsage("unknown argument %q", o)
		}
		if a.set[o] {
			return nil, compatUsage("%s is given twice", o)
		}
		a.set[o] = true
		if takes {
			if i+1 == len(args) {
				return nil, compatUsage("%s needs a value", o)
			}
			i++
			a.val[o] = args[i]
		}
	}
	return a, nil
}

func (a *compatArgs) str(o string) string { return a.val[o] }

// int reads an integer option in [lo, hi], def when absent.
func (a *compatArgs) int(o string, def, lo, hi int64) (int64, error) {
	s, ok := a.val[o]
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, compatUsage("%s %q: want an integer in [%d, %d]", o, s, lo, hi)
	}
	return v, nil
}

// ompWorkers is the worker count of OMP_NUM_THREADS, as OpenMP reads it
// (the first number of a list; 0 when unset or not a positive number:
// all cores).
func ompWorkers() int {
	s, _, _ := strings.Cut(os.Getenv("OMP_NUM_THREADS"), ",")
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < 1 {
		return 0
	}
	return v
}

// ssuOptions are the options of ssu 1.2 to 1.6, and whether each takes a
// value.
var ssuOptions = map[string]bool{
	"-i": true, "-t": true, "-m": true, "-o": true, "-a": true, "-f": false, "--vaw": false,
	"--mode": true, "--start": true, "--stop": true, "--partial-pattern": true, "--n-partials": true,
	"--report-bare": false, "--n-substeps": true, "--format": true, "-r": true, "--pcoa": true,
	"--diskbuf": true, "-n": true, "--normalize-sample-counts": true, "--subsample-depth": true,
	"--subsample-replacement": true, "--seed": true,
	// Read, and refused: the multi mode and PERMANOVA of ssu 1.3.
	"-g": true, "-c": true, "--permanova": true, "--n-subsamples": true,
	"-h": false, "--help": false,
}

// ssuMethod is a method of ssu's -m: the method, and whether its name ends
// in _fp64 (ssu computes the others in float32).
type ssuMethod struct {
	method unifrac.Method
	fp64   bool
	name   string // without the suffix
}

// parseSSUMethod reads ssu's -m.
func parseSSUMethod(s string) (ssuMethod, error) {
	name, fp64 := strings.CutSuffix(s, "_fp64")
	if !fp64 {
		name = strings.TrimSuffix(name, "_fp32")
	}
	for _, m := range unifrac.Methods {
		if m.String() == name {
			return ssuMethod{m, fp64, name}, nil
		}
	}
	var names []string
	for _, m := range unifrac.Methods {
		names = append(names, m.String())
	}
	return ssuMethod{}, compatUsage("unknown method -m %q (available: %s, each also with _fp32 or _fp64)", s, strings.Join(names, ", "))
}

// ssuFormat reads ssu's -r (or --format): the matrix format and whether
// it stores float32 values. "hdf5" stores float64 for a method whose name
// ends in _fp64 and float32 otherwise, as ssu does; ascii prints the
// method's precision.
func ssuFormat(s string, m ssuMethod) (f distmat.Format, fp32 bool, err error) {
	switch s {
	case "", "ascii":
		return distmat.TSV, !m.fp64, nil
	case "hdf5":
		return distmat.HDF5, !m.fp64, nil
	case "hdf5_fp32":
		return distmat.HDF5, true, nil
	case "hdf5_fp64":
		return distmat.HDF5, false, nil
	case "hdf5_nodist":
		return 0, false, compatUsage("-r hdf5_nodist (the output of --mode multi) is not supported")
	}
	return 0, false, compatUsage("-r %q: want ascii, hdf5, hdf5_fp32 or hdf5_fp64", s)
}

func runSSU(e *env, args []string) error {
	a, err := parseCompat(args, ssuOptions)
	if err != nil {
		return err
	}
	if len(args) == 0 || a.set["-h"] || a.set["--help"] {
		fmt.Fprint(e.stdout, helpFile("ssu"))
		return flag.ErrHelp
	}
	for _, o := range []string{"-g", "-c", "--permanova", "--n-subsamples"} {
		if a.set[o] {
			return compatUsage("%s (ssu's PERMANOVA and multi mode) is not supported", o)
		}
	}
	// -n, --n-substeps and --diskbuf bound ssu's memory; twl computes by
	// stripes of rows and needs none of them. Their values are checked.
	if _, err := a.int("--n-substeps", 1, 1, math.MaxInt32); err != nil {
		return err
	}
	mode := a.str("--mode")
	switch mode {
	case "", "one-off":
		return ssuOneOff(e, a)
	case "partial":
		return ssuPartial(e, a)
	case "merge-partial":
		return ssuMerge(e, a)
	case "check-partial":
		return ssuCheck(e, a)
	case "partial-report":
		return ssuReport(e, a)
	case "multi", "multiple":
		return compatUsage("--mode %s is not supported", mode)
	}
	return compatUsage("unknown --mode %q (available: one-off, partial, merge-partial, check-partial, partial-report)", mode)
}

// ssuJob reads the options that one-off and partial share into a job.
func ssuJob(e *env, a *compatArgs) (*unifracJob, ssuMethod, error) {
	for _, o := range []struct{ flag, what string }{{"-o", "output file"}, {"-i", "table"}, {"-t", "tree"}, {"-m", "method"}} {
		if a.str(o.flag) == "" {
			return nil, ssuMethod{}, compatUsage("%s (the %s) is required", o.flag, o.what)
		}
	}
	m, err := parseSSUMethod(a.str("-m"))
	if err != nil {
		return nil, m, err
	}
	j := &unifracJob{fs: newFlags("ssu", ""), name: e.prog, treePath: a.str("-t"), tablePath: a.str("-i"),
		method: m.method, alphaWord: "-", out: a.str("-o"), workers: ompWorkers(), maxMem: math.MaxInt64,
		readMax: compatReadMax(), ssu: true}
	if m.method == unifrac.Generalized {
		j.opts.Alpha = 1
		if s, ok := a.val["-a"]; ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || !(v >= 0 && v <= 1) {
				return nil, m, compatUsage("-a %q: the exponent of generalized UniFrac is a number in [0, 1]", s)
			}
			j.opts.Alpha = v
		}
		j.alphaWord = strconv.FormatFloat(j.opts.Alpha, 'g', -1, 64)
	}
	j.opts.VarianceAdjusted = a.set["--vaw"]
	j.opts.BypassTips = a.set["-f"]
	switch s := a.str("--normalize-sample-counts"); s {
	case "", "true":
	case "false":
		j.opts.Raw = true
	default:
		return nil, m, compatUsage("--normalize-sample-counts %q: want true or false", s)
	}
	return j, m, nil
}

// ssuOneOff computes the whole matrix (ssu --mode one-off).
func ssuOneOff(e *env, a *compatArgs) error {
	j, m, err := ssuJob(e, a)
	if err != nil {
		return err
	}
	f := a.str("--format")
	if f == "" {
		f = a.str("-r")
	}
	if j.format, j.fp32, err = ssuFormat(f, m); err != nil {
		return err
	}
	j.qza = isQZA(j.out)
	if j.qza && j.format != distmat.TSV {
		return compatUsage("-o %s: a QIIME 2 artifact holds the matrix as ascii, not -r %s", j.out, f)
	}
	pcoa, err := a.int("--pcoa", 10, 0, math.MaxInt32)
	if err != nil {
		return err
	}
	if j.format == distmat.HDF5 {
		j.h5pcoa = int(pcoa)
	}
	if j.depth, err = a.int("--subsample-depth", 0, 0, math.MaxInt64); err != nil {
		return err
	}
	switch s := a.str("--subsample-replacement"); s {
	case "", "with":
		j.replace = true
	case "without":
	default:
		return compatUsage("--subsample-replacement %q: want with or without", s)
	}
	seed, err := a.int("--seed", 0, math.MinInt64, math.MaxInt64)
	if err != nil {
		return err
	}
	// Without --subsample-depth, --seed and --subsample-replacement have
	// nothing to act on here (ssu's --seed also seeds its randomized PCoA;
	// twl's does not depend on a seed).
	j.seed = uint64(seed)
	return runUnifracJob(e, j)
}

// ssuStripes returns the stripes of ssu's partial computations for n
// samples: (n+1)/2, each the distances between sample i and sample
// (i+k+1) mod n for all i.
func ssuStripes(n int) int { return (n + 1) / 2 }

// stripeRow returns the first row of the rows that twl computes for ssu's
// stripes from s on: the stripes' share of the rows, so that consecutive
// stripe ranges make consecutive row ranges, and all stripes all rows.
func stripeRow(s, n int) int { return int(int64(s) * int64(n) / int64(ssuStripes(n))) }

// ssuPartial computes the rows of stripes [--start, --stop) into a partial
// file (ssu --mode partial).
func ssuPartial(e *env, a *compatArgs) error {
	j, m, err := ssuJob(e, a)
	if err != nil {
		return err
	}
	// The parts hold the method's precision, so that their merge is the
	// one-off matrix; float64 parts are those of twl unifrac --shard.
	j.fp32 = !m.fp64
	j.methodWord = methodWord(j.method, j.opts.VarianceAdjusted, j.opts.BypassTips, j.opts.Raw, j.fp32)
	if a.set["--subsample-depth"] {
		return compatUsage("--subsample-depth cannot go with --mode partial (each part would draw its own table)")
	}
	start, err := a.int("--start", 0, 0, math.MaxInt32)
	if err != nil {
		return err
	}
	stop, err := a.int("--stop", 0, 0, math.MaxInt32)
	if err != nil {
		return err
	}
	if stop <= start {
		return compatUsage("--mode partial needs --start S and --stop T with T > S ≥ 0 (stripes; see --mode partial-report)")
	}
	j.rows = func(n int) (int, int, error) {
		if t := ssuStripes(n); int(stop) > t {
			return 0, 0, fmt.Errorf("table %s: --stop %d is past the last stripe: %d samples make %d stripes", j.tablePath, stop, n, t)
		}
		return stripeRow(int(start), n), stripeRow(int(stop), n), nil
	}
	j.format = distmat.TSV // of no matter: a partial file
	return runUnifracJob(e, j)
}

// ssuParts opens the partial files that --partial-pattern names.
func ssuParts(a *compatArgs) ([]*distmat.Part, error) {
	names, err := ssuPartNames(a)
	if err != nil {
		return nil, err
	}
	return openSSUParts(names)
}

// ssuPartNames returns the files that --partial-pattern names, sorted.
func ssuPartNames(a *compatArgs) ([]string, error) {
	pat := a.str("--partial-pattern")
	if pat == "" {
		return nil, compatUsage("--partial-pattern is required: a pattern such as 'unifrac.*.partial' that names the partial files")
	}
	if rest, ok := strings.CutPrefix(pat, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			pat = filepath.Join(home, rest)
		}
	}
	names, err := filepath.Glob(pat)
	if err != nil {
		return nil, compatUsage("--partial-pattern %q: %v", pat, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no file matches --partial-pattern %q", pat)
	}
	slices.Sort(names)
	return names, nil
}

// openSSUParts opens the partial files names.
func openSSUParts(names []string) ([]*distmat.Part, error) {
	var parts []*distmat.Part
	for _, name := range names {
		p, err := distmat.OpenPart(name)
		if err != nil {
			for _, q := range parts {
				q.Close()
			}
			if isSSUPartial(name) {
				return nil, fmt.Errorf("%s is a partial file of Striped UniFrac's own ssu, whose format twl does not read: merge ssu's parts with ssu, or compute every part with twl", name)
			}
			return nil, err
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// ssuPartialMagic begins the partial files of ssu (unifrac-binaries'
// write_partial: the 32-bit magic 0x088ABA02, little-endian).
const ssuPartialMagic = "\x02\xba\x8a\x08"

// isSSUPartial reports whether the file name begins as ssu's partial
// files do.
func isSSUPartial(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len(ssuPartialMagic))
	_, err = io.ReadFull(f, b)
	return err == nil && string(b) == ssuPartialMagic
}

// ssuMerge merges partial files into the matrix (ssu --mode
// merge-partial).
func ssuMerge(e *env, a *compatArgs) error {
	out := a.str("-o")
	if out == "" {
		return compatUsage("-o (the output file) is required")
	}
	var m ssuMethod // without -m, -r hdf5 is float32, as in ssu
	if s := a.str("-m"); s != "" {
		var err error
		if m, err = parseSSUMethod(s); err != nil {
			return err
		}
	}
	fstr := a.str("--format")
	if fstr == "" {
		fstr = a.str("-r")
	}
	f, fp32, err := ssuFormat(fstr, m)
	if err != nil {
		return err
	}
	if f == distmat.TSV {
		fp32 = false // the parts' values as they are
	}
	pcoa, err := a.int("--pcoa", 10, 0, math.MaxInt32)
	if err != nil {
		return err
	}
	qz := isQZA(out)
	if qz && f != distmat.TSV {
		return compatUsage("-o %s: a QIIME 2 artifact holds the matrix as ascii, not -r %s", out, fstr)
	}
	names, err := ssuPartNames(a)
	if err != nil {
		return err
	}
	files := new(atomicfile.Files)
	for _, name := range names {
		files.Input("a partial file of --partial-pattern", name)
	}
	files.Output("-o", out)
	if err := checkCompatFiles(files); err != nil {
		return err
	}
	parts, err := openSSUParts(names)
	if err != nil {
		return err
	}
	defer func() {
		for _, p := range parts {
			p.Close()
		}
	}()
	if err := distmat.CheckParts(parts); err != nil {
		return err
	}
	w, err := e.create(out)
	if err != nil {
		return err
	}
	defer w.Abort()
	ids := parts[0].IDs
	n := len(ids)
	opts := &distmat.Options{Workers: ompWorkers(), Float32: fp32}
	if f == distmat.HDF5 && pcoa > 0 {
		// The PCoA needs the whole matrix before the file is written.
		full := make([]float64, 0, n*n)
		if err := distmat.MergeRows(e.ctx, parts, func(rows []float64) error {
			full = append(full, rows...)
			return nil
		}); err != nil {
			return err
		}
		if fp32 {
			round32(full)
		}
		if opts.PCoA, err = h5PCoA(e, ids, full, int(pcoa)); err != nil {
			return err
		}
		mw, err := distmat.NewWriter(w, f, ids, opts)
		if err != nil {
			return err
		}
		if err := mw.WriteRows(full); err != nil {
			return err
		}
		if err := mw.Close(); err != nil {
			return err
		}
		return w.Commit()
	}
	if err := mergeTo(e, w, f, parts, opts, qz); err != nil {
		return err
	}
	return w.Commit()
}

// ssuCheck checks that partial files make a whole matrix (ssu --mode
// check-partial), and says so with ssu's report.
func ssuCheck(e *env, a *compatArgs) error {
	parts, err := ssuParts(a)
	if err != nil {
		return err
	}
	defer func() {
		for _, p := range parts {
			p.Close()
		}
	}()
	fmt.Fprintf(e.stdout, "Processing %d partial files.\n", len(parts))
	if err := distmat.CheckParts(parts); err != nil {
		return err
	}
	n := float64(parts[0].N)
	const gib = 1 << 30
	fmt.Fprintf(e.stdout, "Partials are ready to be merged\nn_samples = %d\nMatrix RAM needs: fp32 = %sGB, fp64 = %sGB\n",
		parts[0].N, cppDouble(4*n*n/gib), cppDouble(8*n*n/gib))
	return nil
}

// cppDouble formats v as C++'s ostream does by default (%g with 6
// significant digits).
func cppDouble(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// ssuReport suggests the stripes of --n-partials partial computations
// (ssu --mode partial-report): ssu's stripe ranges, the first ones one
// stripe longer when they do not divide evenly.
func ssuReport(e *env, a *compatArgs) error {
	table := a.str("-i")
	if table == "" {
		return compatUsage("-i (the table) is required")
	}
	np, err := a.int("--n-partials", 1, 1, 1e9)
	if err != nil {
		return err
	}
	bt, err := biom.ReadFile(table, &biom.Options{MaxBytes: compatReadMax()})
	if err != nil {
		return err
	}
	n := len(bt.Samples)
	total := int64(ssuStripes(n))
	if !a.set["--report-bare"] {
		fmt.Fprintf(e.stdout, "Total samples: %d\nTotal stripes: %d\n", n, total)
	}
	full, small := (total+np-1)/np, total/np
	nfull := total % np
	if nfull == 0 {
		nfull = np
	}
	start := int64(0)
	for p := range np {
		size := small
		if p < nfull {
			size = full
		}
		if a.set["--report-bare"] {
			fmt.Fprintf(e.stdout, "%d\t%d\n", start, start+size)
		} else {
			fmt.Fprintf(e.stdout, "Partition %d, suggested start and stop: %d, %d\n", p, start, start+size)
		}
		start += size
	}
	return nil
}

// subsampleTable rarefies the table of job j (ssu --subsample-depth).
func subsampleTable(bt *biom.Table, j *unifracJob) (*biom.Table, error) {
	r, err := rarefaction.Subsample(bt, j.depth, rand.NewPCG(j.seed, 0), &rarefaction.Options{Replace: j.replace, Workers: j.workers})
	if err != nil {
		return nil, fmt.Errorf("table %s: --subsample-depth: %w", j.tablePath, err)
	}
	if len(r.Samples) == 0 {
		return nil, fmt.Errorf("table %s: no sample has %d counts or more (--subsample-depth)", j.tablePath, j.depth)
	}
	return r, nil
}

// h5PCoA computes the PCoA of ssu's HDF5 matrices: k axes (ssu --pcoa), of
// which those beyond the samples' number are zeros, as are the
// coordinates on axes of eigenvalue ≤ 0. ssu computes them by randomized
// SVD ("FSVD"); twl exactly or by Krylov iteration to 10⁻⁹ (package
// ordination), which the method name says ("eigh", scikit-bio's name for
// the exact one).
func h5PCoA(e *env, ids []string, full []float64, k int) (*distmat.PCoA, error) {
	n := len(ids)
	var r ordination.Result
	if err := ordination.PCoA(&r, full, n, min(k, n)); err != nil {
		var de *ordination.DataError
		if errors.As(err, &de) {
			return nil, fmt.Errorf("PCoA: distance between %q and %q: %s", ids[de.Row], ids[de.Col], de.Msg)
		}
		return nil, err
	}
	// ssu's proportions are of the trace of the centred matrix, the sum of
	// all eigenvalues, Σ d²/2n (scikit-bio's fsvd), not of the positive
	// ones.
	var trace float64
	for _, d := range full {
		trace += d * d
	}
	trace /= 2 * float64(n)
	p := &distmat.PCoA{Method: "eigh", Eigenvalues: make([]float64, k), Proportion: make([]float64, k), Coords: make([]float64, n*k)}
	for a := range min(k, r.K) {
		p.Eigenvalues[a] = r.Eigenvalues[a]
		if l := r.Eigenvalues[a]; l > 0 && trace > 0 {
			p.Proportion[a] = l / trace
		}
		for i := range n {
			p.Coords[i*k+a] = r.Coords[i*r.K+a]
		}
	}
	return p, e.stopped()
}

// checkCompatFiles refuses an output that is an input or another output
// (atomicfile.Files), before anything is read or written, as the tools
// report every error: exit status 1, the message and a line pointing to
// --help.
func checkCompatFiles(files *atomicfile.Files) error {
	if err := files.Check(); err != nil {
		return compatUsage("%v", err)
	}
	return nil
}

// compatReadMax is the most memory ssu and faithpd may take to read a
// table or a tree (biom and newick Options.MaxBytes; a .qza's payload
// inflates to 256 MiB at most whatever it is). These command lines have
// no --max-memory: it is the runtime's memory limit where GOMEMLIMIT sets
// one, else 4 GiB, twl unifrac's default --max-memory.
func compatReadMax() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
			return max(l, minMemory)
		}
	}
	return 4 << 30
}

// compatMemErr says which limit an input past compatReadMax passed.
func compatMemErr(err error) error {
	if err != nil && errors.Is(err, fileerr.ErrTooLarge) {
		return fmt.Errorf("%w (the limit is GOMEMLIMIT, or 4GiB where it is not set)", err)
	}
	return err
}
