package main

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/hdf5"
	"github.com/twl-ldl/twl/internal/qza"
)

// ssuData is the directory of ssu's recorded outputs (testdata/ssu/README.md).
const ssuData = "testdata/ssu"

// ssu runs twl as ssu (as through a link named ssu) in-process.
func ssu(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runAs(context.Background(), "ssu", args, strings.NewReader(""), &out, &errb)
	if s := errb.String(); strings.Contains(s, "goroutine ") || strings.Contains(s, "internal error") {
		t.Fatalf("ssu %q: panic or internal error:\n%s", args, s)
	}
	return code, out.String(), errb.String()
}

// parseMatrix reads a matrix in ssu's ASCII layout.
func parseMatrix(t *testing.T, text string) ([]string, []float64) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	ids := strings.Split(lines[0], "\t")[1:]
	var v []float64
	for i, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if f[0] != ids[i] || len(f) != len(ids)+1 {
			t.Fatalf("line %d: %q", i+2, l)
		}
		for _, s := range f[1:] {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			v = append(v, x)
		}
	}
	return ids, v
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSSUOneOff compares twl as ssu with ssu 1.2's recorded outputs of the
// four methods at its default precision (float32): the same layout and
// ids, values within 1e-6 relative (ssu adds in float32; twl rounds its
// exact float64 distances to float32 once, so the two differ by an ulp or
// two of float32). Every twl value is a float32, printed as ssu prints it,
// and the _fp64 run is twl unifrac's output byte for byte.
func TestSSUOneOff(t *testing.T) {
	dir := t.TempDir()
	table, tree := filepath.Join(ssuData, "small.biom"), filepath.Join(ssuData, "small.nwk")
	for _, c := range []struct {
		method string
		args   []string
		file   string
	}{
		{"unweighted", nil, "small.unweighted.tsv"},
		{"weighted_normalized", nil, "small.weighted_normalized.tsv"},
		{"weighted_unnormalized_fp32", nil, "small.weighted_unnormalized.tsv"},
		{"generalized", []string{"-a", "0.5"}, "small.generalized0.5.tsv"},
	} {
		out := filepath.Join(dir, c.method+".tsv")
		// Options in an order of their own: ssu reads them anywhere.
		code, so, se := ssu(t, append([]string{"-o", out, "-m", c.method, "-t", tree, "-i", table}, c.args...)...)
		if code != 0 || so != "" || se != "" {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", c.method, code, so, se)
		}
		got := readFile(t, out)
		gotIDs, g := parseMatrix(t, got)
		wantIDs, w := parseMatrix(t, readFile(t, filepath.Join(ssuData, c.file)))
		if !slices.Equal(gotIDs, wantIDs) {
			t.Fatalf("%s: ids %v, want %v", c.method, gotIDs, wantIDs)
		}
		for k := range g {
			// A float32 printed to 16 digits reads back within 10⁻¹⁵ of
			// itself (float32s are 6·10⁻⁸ apart, relatively, or more).
			if x := float64(float32(g[k])); math.Abs(x-g[k]) > 1e-15*x {
				t.Errorf("%s: value %d, %v, is not a float32", c.method, k, g[k])
			}
			if d := math.Abs(g[k] - w[k]); d > 1e-6*math.Abs(w[k]) {
				t.Errorf("%s: value %d: %v, ssu %v", c.method, k, g[k], w[k])
			}
		}
		// The same run at _fp64 is twl unifrac's matrix.
		out64 := filepath.Join(dir, c.method+"64.tsv")
		m64 := strings.TrimSuffix(c.method, "_fp32") + "_fp64"
		if code, _, se := ssu(t, append([]string{"-i", table, "-t", tree, "-m", m64, "-o", out64}, c.args...)...); code != 0 {
			t.Fatalf("%s: %s", m64, se)
		}
		args := []string{"unifrac", "--table", table, "--tree", tree, "--method", strings.TrimSuffix(c.method, "_fp32"), "--out", filepath.Join(dir, "twl.tsv")}
		if c.args != nil {
			args = append(args, "--alpha", "0.5")
		}
		if code, _, se := twl(t, "", args...); code != 0 {
			t.Fatal(se)
		}
		if readFile(t, out64) != readFile(t, filepath.Join(dir, "twl.tsv")) {
			t.Errorf("%s: differs from twl unifrac", m64)
		}
		_, v64 := parseMatrix(t, readFile(t, out64))
		for k := range v64 {
			if float32(v64[k]) != float32(g[k]) {
				t.Errorf("%s: value %d: %v is not the float32 of %v", c.method, k, g[k], v64[k])
				break
			}
		}
	}
}

// TestSSUHDF5 compares twl's HDF5 output with ssu's recorded file (both
// read with package internal/hdf5): the same datasets, ids and types, the
// matrix within 1e-7 relative, the PCoA's eigenvalues and proportions
// within 1e-6 relative, its coordinates within 2e-4 up to each axis's sign
// (ssu's PCoA is a randomized SVD; its coordinates differ from the exact
// ones by up to 7e-5 here, on axes of 0.2–0.4). It also checks that -r hdf5 stores
// float32, and that --pcoa 0 leaves the PCoA out.
func TestSSUHDF5(t *testing.T) {
	dir := t.TempDir()
	table, tree := filepath.Join(ssuData, "small.biom"), filepath.Join(ssuData, "small.nwk")
	out := filepath.Join(dir, "u.h5")
	if code, _, se := ssu(t, "-i", table, "-t", tree, "-m", "unweighted_fp64", "-r", "hdf5_fp64", "--pcoa", "3", "-o", out); code != 0 {
		t.Fatal(se)
	}
	open := func(name string) *hdf5.File {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := hdf5.OpenBytes(b, name)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	got, want := open(out), open(filepath.Join(ssuData, "small.unweighted_fp64.h5"))
	gm, _ := got.Members("/")
	wm, _ := want.Members("/")
	if !slices.Equal(gm, wm) {
		t.Fatalf("datasets %v, ssu's %v", gm, wm)
	}
	floats := func(f *hdf5.File, name string) ([]float64, []int) {
		v, err := f.Dataset(name)
		if err != nil {
			t.Fatal(err)
		}
		x, err := v.Float64s()
		if err != nil {
			t.Fatal(err)
		}
		return x, v.Dims()
	}
	strs := func(f *hdf5.File, name string) []string {
		v, err := f.Dataset(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := v.Strings()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, name := range []string{"order", "format", "version"} {
		if g, w := strs(got, name), strs(want, name); !slices.Equal(g, w) {
			t.Errorf("%s: %q, ssu %q", name, g, w)
		}
	}
	if m := strs(got, "pcoa_method"); !slices.Equal(m, []string{"eigh"}) {
		t.Errorf("pcoa_method %q", m)
	}
	near := func(name string, g, w []float64, rel float64) {
		for k := range w {
			if math.Abs(g[k]-w[k]) > rel*math.Abs(w[k]) {
				t.Errorf("%s[%d] = %v, ssu %v", name, k, g[k], w[k])
			}
		}
	}
	for _, c := range []struct {
		name string
		rel  float64
	}{{"matrix", 1e-7}, {"pcoa_eigvals", 1e-6}, {"pcoa_proportion_explained", 1e-6}} {
		g, gd := floats(got, c.name)
		w, wd := floats(want, c.name)
		if !slices.Equal(gd, wd) {
			t.Fatalf("%s: dimensions %v, ssu %v", c.name, gd, wd)
		}
		near(c.name, g, w, c.rel)
	}
	g, _ := floats(got, "pcoa_samples")
	w, _ := floats(want, "pcoa_samples")
	for a := range 3 {
		sign := 1.0
		if g[3+a]*w[3+a] < 0 { // sample 1: far from 0 on every axis
			sign = -1
		}
		for i := range 12 {
			if d := math.Abs(sign*g[i*3+a] - w[i*3+a]); d > 2e-4 {
				t.Errorf("pcoa_samples[%d][%d] = %v, ssu %v", i, a, g[i*3+a], w[i*3+a])
			}
		}
	}
	// -r hdf5: float32 (ssu's default precision), PCoA of 10 axes, or
	// none with --pcoa 0.
	for _, pcoa := range []string{"10", "0"} {
		out := filepath.Join(dir, "u32_"+pcoa+".h5")
		if code, _, se := ssu(t, "-i", table, "-t", tree, "-m", "unweighted", "-r", "hdf5", "--pcoa", pcoa, "-o", out); code != 0 {
			t.Fatal(se)
		}
		f := open(out)
		m32, _ := floats(f, "matrix")
		m64, _ := floats(got, "matrix")
		for k := range m64 {
			if m32[k] != float64(float32(m64[k])) {
				t.Fatalf("float32 matrix value %d: %v, want float32(%v)", k, m32[k], m64[k])
			}
		}
		_, err := f.Dataset("pcoa_eigvals")
		if pcoa == "0" && err == nil {
			t.Error("--pcoa 0 writes a PCoA")
		}
		if pcoa == "10" {
			if e, d := floats(f, "pcoa_eigvals"); len(e) != 10 || d[0] != 10 {
				t.Errorf("--pcoa 10: %d eigenvalues", len(e))
			}
		}
	}
}

// TestSSUPartial: partial-report prints ssu's suggestions byte for byte;
// the parts of those suggestions, merged (as ascii, and as HDF5), give the
// one-off matrix byte for byte; check-partial prints ssu's report; a
// missing part is refused, naming the rows.
func TestSSUPartial(t *testing.T) {
	dir := t.TempDir()
	table, tree := filepath.Join(ssuData, "small.biom"), filepath.Join(ssuData, "small.nwk")
	for _, k := range []string{"1", "3", "5"} {
		for _, bare := range []bool{false, true} {
			args := []string{"-i", table, "--mode", "partial-report", "--n-partials", k}
			file := "report" + k + ".txt"
			if bare {
				args = append(args, "--report-bare")
				file = "report" + k + ".bare.txt"
			}
			code, out, se := ssu(t, args...)
			if want := readFile(t, filepath.Join(ssuData, file)); code != 0 || out != want {
				t.Errorf("%v: exit %d, %q (%s), want %q", args, code, out, se, want)
			}
		}
	}
	_, report, _ := ssu(t, "-i", table, "--mode", "partial-report", "--n-partials", "5", "--report-bare")
	for _, line := range strings.Split(strings.TrimSpace(report), "\n") {
		start, stop, _ := strings.Cut(line, "\t")
		code, _, se := ssu(t, "-i", table, "-t", tree, "-m", "weighted_normalized", "--mode", "partial",
			"--start", start, "--stop", stop, "-o", filepath.Join(dir, "p."+start+".partial"))
		if code != 0 {
			t.Fatal(se)
		}
	}
	one := filepath.Join(dir, "one.tsv")
	if code, _, se := ssu(t, "-i", table, "-t", tree, "-m", "weighted_normalized", "-o", one); code != 0 {
		t.Fatal(se)
	}
	merged := filepath.Join(dir, "merged.tsv")
	if code, _, se := ssu(t, "--mode", "merge-partial", "--partial-pattern", filepath.Join(dir, "p.*.partial"), "-o", merged); code != 0 {
		t.Fatal(se)
	}
	if readFile(t, merged) != readFile(t, one) {
		t.Error("merged parts differ from the one-off matrix")
	}
	for _, f := range []string{"one.h5", "merged.h5"} {
		args := []string{"-r", "hdf5", "-o", filepath.Join(dir, f)}
		if f == "one.h5" {
			args = append(args, "-i", table, "-t", tree, "-m", "weighted_normalized")
		} else {
			args = append(args, "--mode", "merge-partial", "--partial-pattern", filepath.Join(dir, "p.*.partial"))
		}
		if code, _, se := ssu(t, args...); code != 0 {
			t.Fatal(se)
		}
	}
	if readFile(t, filepath.Join(dir, "one.h5")) != readFile(t, filepath.Join(dir, "merged.h5")) {
		t.Error("merged HDF5 differs from the one-off HDF5")
	}
	code, out, se := ssu(t, "--mode", "check-partial", "--partial-pattern", filepath.Join(dir, "p.*.partial"))
	if want := readFile(t, filepath.Join(ssuData, "check.txt")); code != 0 || strings.Replace(out, "5 partial", "2 partial", 1) != want {
		t.Errorf("check-partial: exit %d, %q (%s), want %q", code, out, se, want)
	}
	// A float64 part of the same rows is another matrix: refused.
	code, _, se = ssu(t, "-i", table, "-t", tree, "-m", "weighted_normalized_fp64", "--mode", "partial",
		"--start", "0", "--stop", "2", "-o", filepath.Join(dir, "q.0.partial"))
	if code != 0 {
		t.Fatal(se)
	}
	code, _, se = ssu(t, "--mode", "merge-partial", "--partial-pattern", filepath.Join(dir, "[pq].*.partial"), "-o", filepath.Join(dir, "m3.tsv"))
	if code != 1 || !strings.Contains(se, `method "weighted_normalized+fp32" differs from "weighted_normalized"`) &&
		!strings.Contains(se, `method "weighted_normalized" differs from "weighted_normalized+fp32"`) {
		t.Errorf("float32 and float64 parts: exit %d, %q", code, se)
	}
	os.Remove(filepath.Join(dir, "q.0.partial"))
	// A partial file of ssu itself (its first bytes) is named as such.
	ssuPart := filepath.Join(dir, "p.9.partial")
	if err := os.WriteFile(ssuPart, []byte("\x02\xba\x8a\x08\x0c\x00\x00\x00rest"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, se = ssu(t, "--mode", "merge-partial", "--partial-pattern", filepath.Join(dir, "p.*.partial"), "-o", filepath.Join(dir, "m4.tsv"))
	if code != 1 || !strings.Contains(se, "p.9.partial is a partial file of Striped UniFrac's own ssu") {
		t.Errorf("ssu's partial file: exit %d, %q", code, se)
	}
	os.Remove(ssuPart)
	if err := os.Remove(filepath.Join(dir, "p.2.partial")); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"check-partial", "merge-partial"} {
		code, _, se := ssu(t, "--mode", mode, "--partial-pattern", filepath.Join(dir, "p.*.partial"), "-o", filepath.Join(dir, "m2.tsv"))
		if code != 1 || !strings.Contains(se, "are in no part: a part is missing") {
			t.Errorf("%s without a part: exit %d, %q", mode, code, se)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "m2.tsv")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a failed merge left its output")
	}
}

// TestSSUErrors: every error exits 1 with one message on standard error
// and writes nothing; help and no arguments exit 0 with the help.
func TestSSUErrors(t *testing.T) {
	dir := t.TempDir()
	table, tree := filepath.Join(ssuData, "small.biom"), filepath.Join(ssuData, "small.nwk")
	out := filepath.Join(dir, "d.tsv")
	bad := filepath.Join(dir, "bad.tsv")
	if err := os.WriteFile(bad, []byte("#OTU ID\tS1\nt0\t1\nt1\tx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-i", table, "-t", tree, "-m", "unweighted"}, "-o (the output file) is required"},
		{[]string{"-i", table, "-t", tree, "-o", out}, "-m (the method) is required"},
		{[]string{"-i", table, "-t", tree, "-m", "nope", "-o", out}, `unknown method -m "nope"`},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o", out, "--frobnicate"}, `unknown argument "--frobnicate"`},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o", out, "-m", "unweighted"}, "-m is given twice"},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o"}, "-o needs a value"},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o", out, "-r", "csv"}, `-r "csv"`},
		{[]string{"-i", table, "-t", tree, "-m", "generalized", "-a", "2", "-o", out}, `-a "2"`},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o", out, "--mode", "multi"}, "--mode multi is not supported"},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o", out, "--mode", "sideways"}, `unknown --mode "sideways"`},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o", out, "--mode", "partial", "--start", "2", "--stop", "2"}, "--stop T with T > S"},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o", out, "--mode", "partial", "--start", "0", "--stop", "7"}, "--stop 7 is past the last stripe: 12 samples make 6 stripes"},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o", out, "-g", "g.tsv"}, "PERMANOVA"},
		{[]string{"-i", filepath.Join(dir, "none.biom"), "-t", tree, "-m", "unweighted", "-o", out}, "none.biom"},
		{[]string{"-i", bad, "-t", tree, "-m", "unweighted", "-o", out}, "bad.tsv:3:"},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o", filepath.Join(dir, "d.qza"), "-r", "hdf5"}, "a QIIME 2 artifact holds the matrix as ascii"},
		{[]string{"--mode", "merge-partial", "-o", out, "--partial-pattern", filepath.Join(dir, "*.nothing")}, "no file matches --partial-pattern"},
		{[]string{"-i", table, "-t", tree, "-m", "unweighted", "-o", out, "--subsample-depth", "100000"}, "no sample has 100000 counts or more"},
	} {
		code, so, se := ssu(t, c.args...)
		if code != 1 || so != "" || !strings.HasPrefix(se, "ssu: ") || !strings.Contains(se, c.msg) || strings.Count(se, "\n") > 2 {
			t.Errorf("ssu %q: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.args, code, so, se, c.msg)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("ssu %q left %s", c.args, out)
		}
	}
	for _, args := range [][]string{nil, {"--help"}, {"-h"}} {
		code, so, se := ssu(t, args...)
		if code != 0 || !strings.HasPrefix(so, "Usage:\n  ssu -i TABLE") || se != "" {
			t.Errorf("ssu %q: exit %d, stdout %.40q, stderr %q", args, code, so, se)
		}
	}
	// As twl ssu, the messages name twl ssu.
	code, _, se := twl(t, "", "ssu", "-i", table)
	if code != 1 || !strings.HasPrefix(se, "twl ssu: -o (the output file) is required\nsee 'twl ssu --help'") {
		t.Errorf("twl ssu: exit %d, %q", code, se)
	}
}

// TestSSUOptions: OMP_NUM_THREADS sets the workers without changing the
// values; --n-substeps and --diskbuf are accepted; --normalize-sample-counts
// false is twl's raw counts; a .qza output is a DistanceMatrix artifact
// holding the ascii matrix; rarefaction keeps the samples with enough
// counts and is reproducible from its seed.
func TestSSUOptions(t *testing.T) {
	dir := t.TempDir()
	table, tree := filepath.Join(ssuData, "small.biom"), filepath.Join(ssuData, "small.nwk")
	run := func(out string, extra ...string) string {
		t.Helper()
		p := filepath.Join(dir, out)
		args := append([]string{"-i", table, "-t", tree, "-m", "weighted_unnormalized_fp64", "-o", p}, extra...)
		if code, _, se := ssu(t, args...); code != 0 {
			t.Fatalf("%q: %s", args, se)
		}
		return readFile(t, p)
	}
	base := run("base.tsv")
	t.Setenv("OMP_NUM_THREADS", "1")
	if ompWorkers() != 1 || run("omp1.tsv", "--n-substeps", "4", "--diskbuf", dir, "-n", "3") != base {
		t.Error("OMP_NUM_THREADS=1 or --n-substeps changes the matrix")
	}
	t.Setenv("OMP_NUM_THREADS", "3,2")
	if ompWorkers() != 3 {
		t.Errorf("OMP_NUM_THREADS=3,2: %d workers", ompWorkers())
	}
	t.Setenv("OMP_NUM_THREADS", "x")
	if ompWorkers() != 0 {
		t.Errorf("OMP_NUM_THREADS=x: %d workers", ompWorkers())
	}
	raw := run("raw.tsv", "--normalize-sample-counts", "false")
	code, _, se := twl(t, "", "unifrac", "--table", table, "--tree", tree, "--method", "weighted_unnormalized", "--out", filepath.Join(dir, "n.tsv"))
	if code != 0 || raw == base {
		t.Fatalf("raw counts: %s", se)
	}
	run("a.qza")
	b, err := os.ReadFile(filepath.Join(dir, "a.qza"))
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := qza.Payload(b, "distance-matrix.tsv", 0)
	if err != nil || string(data) != base {
		t.Errorf("the artifact's matrix: %v", err)
	}
	// Rarefaction: 6 of the 12 samples have 30 counts or more.
	r1 := run("r1.tsv", "--subsample-depth", "30", "--seed", "4")
	r2 := run("r2.tsv", "--subsample-depth", "30", "--seed", "4")
	r3 := run("r3.tsv", "--subsample-depth", "30", "--seed", "5", "--subsample-replacement", "without")
	ids, _ := parseMatrix(t, r1)
	if r1 != r2 || r1 == r3 || len(ids) == 0 || len(ids) == 12 {
		t.Errorf("rarefied matrices: same seed equal %v, other seed differs %v, %d samples", r1 == r2, r1 != r3, len(ids))
	}
}

// TestSSULink runs twl (this test binary, as twl: see TestMain) through
// a link named ssu: the name alone makes it ssu. (.ci/qiime.sh runs the
// built binary through its links.)
func TestSSULink(t *testing.T) {
	dir := t.TempDir()
	bin, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	link := filepath.Join(dir, "ssu")
	if err := os.Symlink(bin, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	out := filepath.Join(dir, "d.tsv")
	cmd := exec.Command(link, "-i", filepath.Join(ssuData, "small.biom"), "-t", filepath.Join(ssuData, "small.nwk"), "-m", "unweighted", "-o", out)
	cmd.Env = append(os.Environ(), benchChildEnv+"=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	ids, _ := parseMatrix(t, readFile(t, out))
	if len(ids) != 12 {
		t.Errorf("%d samples", len(ids))
	}
	cmd = exec.Command(link, "-m", "unweighted")
	cmd.Env = append(os.Environ(), benchChildEnv+"=1")
	b, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.HasPrefix(string(b), "ssu: -o (the output file) is required") {
		t.Errorf("ssu -m unweighted: %v, %q", err, b)
	}
}

// TestUnifracArtifactAndHDF5: twl unifrac (and its merge) writes the TSV
// matrix into a QIIME 2 artifact for an --out ending in .qza, and an HDF5
// matrix for .h5 whose values are the TSV's.
func TestUnifracArtifactAndHDF5(t *testing.T) {
	dir := t.TempDir()
	table, tree := filepath.Join(ssuData, "small.biom"), filepath.Join(ssuData, "small.nwk")
	p := func(s string) string { return filepath.Join(dir, s) }
	base := []string{"unifrac", "--table", table, "--tree", tree, "--method", "unweighted"}
	for _, out := range []string{"d.tsv", "d.qza", "d.h5"} {
		if code, _, se := twl(t, "", append(base, "--out", p(out))...); code != 0 {
			t.Fatal(se)
		}
	}
	for s := 1; s <= 2; s++ {
		if code, _, se := twl(t, "", append(base, "--shard", strconv.Itoa(s)+"/2", "--out", p("part"+strconv.Itoa(s)))...); code != 0 {
			t.Fatal(se)
		}
	}
	if code, _, se := twl(t, "", "unifrac", "merge", p("part1"), p("part2"), "--out", p("m.qza")); code != 0 {
		t.Fatal(se)
	}
	tsv := readFile(t, p("d.tsv"))
	for _, name := range []string{"d.qza", "m.qza"} {
		data, _, err := qza.Payload([]byte(readFile(t, p(name))), "distance-matrix.tsv", 0)
		if err != nil || string(data) != tsv {
			t.Errorf("%s: %v", name, err)
		}
	}
	f, err := hdf5.OpenBytes([]byte(readFile(t, p("d.h5"))), "d.h5")
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.Dataset("matrix")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := v.Float64s()
	_, want := parseMatrix(t, tsv)
	for k := range want {
		// %.16g text of the float64 read back: within 10⁻¹⁵.
		if math.Abs(m[k]-want[k]) > 1e-15*math.Abs(want[k]) {
			t.Fatalf("value %d: %v in HDF5, %v in TSV", k, m[k], want[k])
		}
	}
	code, _, se := twl(t, "", append(base, "--out", p("e.qza"), "--format", "npy")...)
	if code != 2 || !strings.Contains(se, "a QIIME 2 artifact (--out") {
		t.Errorf("--format npy into an artifact: exit %d, %q", code, se)
	}
}

// faithpd runs twl as faithpd in-process.
func faithpd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runAs(context.Background(), "faithpd", args, strings.NewReader(""), &out, &errb)
	if s := errb.String(); strings.Contains(s, "goroutine ") || strings.Contains(s, "internal error") {
		t.Fatalf("faithpd %q: panic or internal error:\n%s", args, s)
	}
	return code, out.String(), errb.String()
}

// TestFaithPD compares twl as faithpd with faithpd 1.2's recorded output:
// the same header and ids in order, values within 1e-7 relative (faithpd
// keeps branch lengths in float32; twl sums the lengths as read). A
// sample without counts gets 0, as in faithpd; a .qza output is an
// AlphaDiversity artifact holding the same table; errors exit 1.
func TestFaithPD(t *testing.T) {
	dir := t.TempDir()
	table, tree := filepath.Join(ssuData, "small.biom"), filepath.Join(ssuData, "small.nwk")
	out := filepath.Join(dir, "pd.tsv")
	if code, so, se := faithpd(t, "-t", tree, "-o", out, "-i", table); code != 0 || so != "" || se != "" {
		t.Fatalf("exit %d, %q, %q", code, so, se)
	}
	parse := func(text string) ([]string, []float64) {
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if lines[0] != "#SampleID\tfaith_pd" {
			t.Fatalf("header %q", lines[0])
		}
		var ids []string
		var v []float64
		for _, l := range lines[1:] {
			id, s, _ := strings.Cut(l, "\t")
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("line %q", l)
			}
			ids, v = append(ids, id), append(v, x)
		}
		return ids, v
	}
	got := readFile(t, out)
	gi, g := parse(got)
	wi, w := parse(readFile(t, filepath.Join(ssuData, "small.faithpd.tsv")))
	if !slices.Equal(gi, wi) {
		t.Fatalf("ids %v, faithpd's %v", gi, wi)
	}
	for k := range w {
		if math.Abs(g[k]-w[k]) > 1e-7*w[k] {
			t.Errorf("%s: %v, faithpd %v", gi[k], g[k], w[k])
		}
	}
	if code, _, se := faithpd(t, "-i", table, "-t", tree, "-o", filepath.Join(dir, "pd.qza")); code != 0 {
		t.Fatal(se)
	}
	data, _, err := qza.Payload([]byte(readFile(t, filepath.Join(dir, "pd.qza"))), "alpha-diversity.tsv", 0)
	if err != nil || string(data) != got {
		t.Errorf("the artifact's table: %v", err)
	}
	// An empty sample, in a TSV table on the tree ((a:1,b:2):0.5,c:3);
	dir2 := write(t, map[string]string{
		"t.nwk": "((a:1,b:2):0.5,c:3);",
		"t.tsv": "#OTU ID\tS1\tE\tS2\na\t1\t0\t0\nb\t2\t0\t0\nc\t0\t0\t4\n",
	})
	out2 := filepath.Join(dir2, "pd.tsv")
	if code, _, se := faithpd(t, "-i", filepath.Join(dir2, "t.tsv"), "-t", filepath.Join(dir2, "t.nwk"), "-o", out2); code != 0 {
		t.Fatal(se)
	}
	// By hand: S1 holds a and b: 1 + 2 + 0.5; S2 holds c: 3.
	if s := readFile(t, out2); s != "#SampleID\tfaith_pd\nS1\t3.5\nE\t0\nS2\t3\n" {
		t.Errorf("%q", s)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-i", table, "-t", tree}, "-o (the output file) is required"},
		{[]string{"-i", table, "-o", out2}, "-t (the tree) is required"},
		{[]string{"-i", table, "-t", tree, "-o", out2, "-m", "x"}, `unknown argument "-m"`},
		{[]string{"-i", filepath.Join(dir2, "t.tsv"), "-t", tree, "-o", out2}, "observation ids are not tips of tree"},
		{[]string{"-i", table, "-t", tree, "-o", table}, "-o " + table + " would overwrite -i " + table},
	} {
		code, so, se := faithpd(t, c.args...)
		if code != 1 || so != "" || !strings.HasPrefix(se, "faithpd: ") || !strings.Contains(se, c.msg) {
			t.Errorf("faithpd %q: exit %d, %q, %q; want exit 1 and %q", c.args, code, so, se, c.msg)
		}
	}
	if code, so, _ := faithpd(t); code != 0 || !strings.HasPrefix(so, "Usage:\n  faithpd -i TABLE") {
		t.Errorf("faithpd without arguments: exit %d, %.40q", code, so)
	}
}

// TestSSUModifiers compares ssu -f, --vaw and both through twl with ssu's
// recorded outputs on the same inputs (unifrac/testdata/ssu_small.out.*,
// recorded with ssu 1.2, _fp64 methods: see unifrac/ssu_test.go), to 1e-7
// relative; and unweighted_unnormalized, which ssu 1.2 lacks, equals twl
// unifrac's byte for byte.
func TestSSUModifiers(t *testing.T) {
	dir := t.TempDir()
	table, tree := filepath.Join(ssuData, "small.biom"), filepath.Join(ssuData, "small.nwk")
	for _, mod := range []struct {
		args   []string
		suffix string
	}{{[]string{"-f"}, ".f"}, {[]string{"--vaw"}, ".vaw"}, {[]string{"--vaw", "-f"}, ".vaw.f"}} {
		for _, c := range []struct{ method, file string }{
			{"unweighted", "unweighted"}, {"weighted_normalized", "weighted_normalized"},
			{"weighted_unnormalized", "weighted_unnormalized"}, {"generalized", "generalized0.5"},
		} {
			out := filepath.Join(dir, c.file+mod.suffix+".tsv")
			args := append([]string{"-i", table, "-t", tree, "-m", c.method + "_fp64", "-a", "0.5", "-o", out}, mod.args...)
			if code, _, se := ssu(t, args...); code != 0 {
				t.Fatal(se)
			}
			gi, g := parseMatrix(t, readFile(t, out))
			wi, w := parseMatrix(t, readFile(t, filepath.Join("..", "..", "unifrac", "testdata", "ssu_small.out."+c.file+mod.suffix+".tsv")))
			if !slices.Equal(gi, wi) {
				t.Fatalf("%s: ids differ", c.method)
			}
			for k := range w {
				if math.Abs(g[k]-w[k]) > 1e-7*math.Abs(w[k]) {
					t.Errorf("%s %v: value %d: %v, ssu %v", c.method, mod.args, k, g[k], w[k])
				}
			}
		}
	}
	out := filepath.Join(dir, "uu.tsv")
	if code, _, se := ssu(t, "-i", table, "-t", tree, "-m", "unweighted_unnormalized_fp64", "-o", out); code != 0 {
		t.Fatal(se)
	}
	if code, _, se := twl(t, "", "unifrac", "--table", table, "--tree", tree, "--method", "unweighted_unnormalized", "--out", filepath.Join(dir, "uu2.tsv")); code != 0 {
		t.Fatal(se)
	}
	if readFile(t, out) != readFile(t, filepath.Join(dir, "uu2.tsv")) {
		t.Error("unweighted_unnormalized differs from twl unifrac's")
	}
}
