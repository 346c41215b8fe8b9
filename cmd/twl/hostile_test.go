package main

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/twl-ldl/twl/internal/race"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twl-ldl/twl/internal/testutil/hostile"
)

// A hostile case: the inputs it writes (name → contents, made by the test),
// the command line ($D the inputs' folder, $O an empty folder for the
// outputs), and the most memory its process may take.
type hostileCase struct {
	name  string
	files func() map[string][]byte // made when the case runs
	args  []string
	rss   int64  // the bound of the peak resident memory, bytes (per input byte where that is the bound)
	file  string // the input the error must name
	env   []string
}

// hostileCases are the reading cases of a probe of twl as an attacker
// would try it, scaled down where the bound is per input byte so that the
// tests stay fast (the sizes of the probe in brackets); HOSTILE_FULL=1 in
// the environment runs them at the probe's sizes (TestHostileFull). Each
// hostile file is generated here.
func hostileCases(full bool) []hostileCase {
	scale := func(small, big int) int {
		switch {
		case full:
			return big
		case race.Enabled:
			return max(small/4, 1)
		}
		return small
	}
	const MB = 1 << 20
	tree := []byte(hostile.Newick("O0", "O1", "O2"))
	table := hostile.SmallBIOM("O0", "O1", "O2")
	unifrac := func(maxMem string, tree, table string) []string {
		return []string{"unifrac", "--tree", "$D/" + tree, "--table", "$D/" + table, "--method", "unweighted", "--max-memory", maxMem, "--out", "$O/d.tsv"}
	}
	var out []hostileCase
	add := func(c hostileCase) { out = append(out, c) }

	// A .qza whose table inflates to 300 MiB, or 4 GiB [4 GiB]: declared,
	// or declared small (archive/zip then stops at the declared size).
	bomb := int64(300) * MB
	if full {
		bomb = 4096 * MB
	}
	add(hostileCase{"zip bomb", func() map[string][]byte {
		return map[string][]byte{"t.nwk": tree, "bomb.qza": hostile.Artifact("feature-table.biom", bomb, bomb)}
	},
		unifrac("1GiB", "t.nwk", "bomb.qza"), 64 * MB, "bomb.qza", nil})
	add(hostileCase{"zip bomb, lying header", func() map[string][]byte {
		return map[string][]byte{"t.nwk": tree, "bomb.qza": hostile.Artifact("feature-table.biom", bomb, 4096)}
	},
		unifrac("1GiB", "t.nwk", "bomb.qza"), 64 * MB, "bomb.qza", nil})
	// ssu's and faithpd's command lines read through the same readers,
	// without --max-memory: under 4 GiB, or GOMEMLIMIT where it is set.
	ssu := func(tree, table string) []string {
		return []string{"ssu", "-i", "$D/" + table, "-t", "$D/" + tree, "-m", "unweighted", "-o", "$O/d.tsv"}
	}
	faithpd := func(tree, table string) []string {
		return []string{"faithpd", "-i", "$D/" + table, "-t", "$D/" + tree, "-o", "$O/pd.tsv"}
	}
	add(hostileCase{"zip bomb, ssu", func() map[string][]byte {
		return map[string][]byte{"t.nwk": tree, "bomb.qza": hostile.Artifact("feature-table.biom", bomb, 4096)}
	},
		ssu("t.nwk", "bomb.qza"), 64 * MB, "bomb.qza", nil})
	add(hostileCase{"zip bomb tree, faithpd", func() map[string][]byte {
		return map[string][]byte{"bomb.qza": hostile.Artifact("tree.nwk", bomb, bomb), "t.biom": table}
	},
		faithpd("bomb.qza", "t.biom"), 64 * MB, "bomb.qza", nil})
	// A Newick tree of one unterminated line (a,a,a,… of 20 MB [200 MB]).
	n := scale(20, 200) * MB
	newickMem := "1GiB"
	if race.Enabled {
		newickMem = "256MB" // the text is smaller, so is the limit its nodes pass
	}
	add(hostileCase{"newick unterminated", func() map[string][]byte {
		return map[string][]byte{"t.nwk": []byte("(" + strings.Repeat("a,", n/2)), "t.biom": table}
	},
		unifrac(newickMem, "t.nwk", "t.biom"), 2*int64(n) + 32*MB, "t.nwk", nil})
	// A Newick text of '(' alone, 30 MB [300 MB].
	m := scale(30, 300) * MB
	add(hostileCase{"newick parentheses", func() map[string][]byte {
		return map[string][]byte{"t.nwk": bytes.Repeat([]byte("("), m), "t.biom": table}
	},
		unifrac(newickMem, "t.nwk", "t.biom"), 2*int64(m) + 32*MB, "t.nwk", nil})
	add(hostileCase{"newick parentheses, ssu", func() map[string][]byte {
		return map[string][]byte{"t.nwk": bytes.Repeat([]byte("("), m), "t.biom": table}
	},
		ssu("t.nwk", "t.biom"), 2*int64(m) + 32*MB, "t.nwk", []string{"GOMEMLIMIT=" + newickMem}})
	add(hostileCase{"newick unterminated, faithpd", func() map[string][]byte {
		return map[string][]byte{"t.nwk": []byte("(" + strings.Repeat("a,", n/2)), "t.biom": table}
	},
		faithpd("t.nwk", "t.biom"), 2*int64(n) + 32*MB, "t.nwk", []string{"GOMEMLIMIT=" + newickMem}})
	// BIOM 2.1 files declaring far more than they hold (biom's tests
	// describe them), under --max-memory 100MB.
	for name, b := range hostileTables(full) {
		add(hostileCase{"biom " + name, func() map[string][]byte { return map[string][]byte{"t.nwk": tree, "t.biom": b} },
			unifrac("100MB", "t.nwk", "t.biom"), 48 * MB, "t.biom", nil})
	}
	// A JSON Lines row of 10⁶ labels, 17 MB [10⁷, 169 MB], under
	// --max-memory 64MB [100MB]: longer than its line limit.
	labels := 1_000_000
	if full {
		labels = 10_000_000
	}
	var row strings.Builder
	row.WriteString("{")
	for i := range labels {
		fmt.Fprintf(&row, "%q:0.0000001,", "l"+strconv.Itoa(i))
	}
	row.WriteString(`"a":0.1}` + "\n")
	maxMem := []string{"64MB", "100MB"}[btoi(full)]
	limit := []int64{64e6, 100e6}[btoi(full)]
	small := []byte("r\ta\nr\tb\n")
	add(hostileCase{"long row", func() map[string][]byte {
		return map[string][]byte{"t.tree": small, "a.jsonl": []byte(row.String()), "b.jsonl": []byte(`{"a":1}` + "\n")}
	},
		[]string{"distance", "--tree", "$D/t.tree", "--max-memory", maxMem, "--out", "$O/d.txt", "$D/a.jsonl", "$D/b.jsonl"}, limit, "a.jsonl", nil})
	// A generated tree of 10⁷ labels under --max-memory 100MB.
	add(hostileCase{"star tree", func() map[string][]byte { return map[string][]byte{"a.jsonl": []byte(`{"0":1}` + "\n")} },
		[]string{"distance", "--tree", "star:10000000", "--max-memory", "100MB", "--out", "$O/d.txt", "$D/a.jsonl", "$D/a.jsonl"}, 48 * MB, "star:10000000", nil})
	// A line of 32 MB [1 GB] without a newline, in each reader of text.
	long := bytes.Repeat([]byte("a"), scale(32, 1024)*MB)
	longJSON := append([]byte(`{"text": "`), long...)
	held := int64(min(len(long), 64*MB)) // the line held, at most the longest read
	add(hostileCase{"long line, distance", func() map[string][]byte {
		return map[string][]byte{"t.tree": small, "a.jsonl": long, "b.jsonl": []byte(`{"a":1}` + "\n")}
	},
		[]string{"distance", "--tree", "$D/t.tree", "--out", "$O/d.txt", "$D/a.jsonl", "$D/b.jsonl"}, 3*held + 32*MB, "a.jsonl", nil})
	add(hostileCase{"long line, eval", func() map[string][]byte {
		return map[string][]byte{"t.tree": small, "p.jsonl": long, "y.jsonl": []byte(`{"a":1}` + "\n")}
	},
		[]string{"eval", "--tree", "$D/t.tree", "--out", "$O/e.txt", "$D/p.jsonl", "$D/y.jsonl"}, 3*held + 32*MB, "p.jsonl", nil})
	add(hostileCase{"long line, edge list", func() map[string][]byte {
		return map[string][]byte{"t.tree": append([]byte("r\ta\n"), long...), "a.jsonl": []byte(`{"a":1}` + "\n")}
	},
		[]string{"distance", "--tree", "$D/t.tree", "--out", "$O/d.txt", "$D/a.jsonl", "$D/a.jsonl"}, 48 * MB, "t.tree", nil})
	add(hostileCase{"long line, text stats", func() map[string][]byte { return map[string][]byte{"c.jsonl": longJSON} },
		[]string{"text", "stats", "--data", "$D/c.jsonl", "--out", "$O/s.txt"}, 4*held + 32*MB, "c.jsonl", nil})
	add(hostileCase{"long line, tree build", func() map[string][]byte {
		return map[string][]byte{"v.vec": []byte("2 2\nab 1 0\ncd 0 1\n"), "labels.txt": append([]byte("ab\n"), long...)}
	},
		[]string{"tree", "build", "--emb", "$D/v.vec", "--labels", "$D/labels.txt", "--quiet", "--out", "$O/t.tree"}, 48 * MB, "labels.txt", nil})
	// fastText's supervised format: a line of 32 MB [1 GB] without a
	// newline (ending in a byte that is not UTF-8 [longer than the longest
	// read]), and 10⁶ [10⁷] labels on one line (11 MB [110 MB]), the last
	// not in the tree, no text, read for training, prediction and scoring.
	ftLong := append(append([]byte("__label__a "), long...), 0xff)
	ftLabels := append(bytes.Repeat([]byte("__label__a "), scale(1, 10)*1_000_000), "__label__zz\n"...)
	ftHeld := int64(min(len(ftLabels), 64*MB))
	for _, c := range []struct {
		name string
		text []byte
		held int64
	}{{"long line", ftLong, held}, {"labels on a line", ftLabels, ftHeld}} {
		add(hostileCase{c.name + ", fastText, text train", func() map[string][]byte {
			return map[string][]byte{"t.tree": small, "f.txt": c.text}
		},
			[]string{"text", "train", "--train", "$D/f.txt", "--tree", "$D/t.tree", "--out", "$O/m.json"}, 3*c.held + 32*MB, "f.txt", nil})
		add(hostileCase{c.name + ", fastText, text predict", func() map[string][]byte {
			return map[string][]byte{"m.json": hostileTextModel(small), "f.txt": c.text}
		},
			[]string{"text", "predict", "--model", "$D/m.json", "--data", "$D/f.txt", "--format", "fasttext", "--top", "5", "--out", "$O/p.txt"}, 3*c.held + 32*MB, "f.txt", nil})
		add(hostileCase{c.name + ", fastText, eval --multilabel", func() map[string][]byte {
			return map[string][]byte{"t.tree": small, "p.jsonl": []byte(`{"a":1}` + "\n"), "f.txt": c.text}
		},
			[]string{"eval", "--multilabel", "--k", "2", "--tree", "$D/t.tree", "--out", "$O/e.txt", "$D/p.jsonl", "$D/f.txt"}, 3*c.held + 32*MB, "f.txt", nil})
	}
	// A MAT-file of 64 KB [98 KB] whose compressed features are 64 MiB
	// [100 MiB] of uint8 zeros, 512 MiB [800 MiB] as float64.
	side := 8192
	switch {
	case full:
		side = 10240
	case race.Enabled:
		side = 4096
	}
	add(hostileCase{"mat zeros", func() map[string][]byte { return map[string][]byte{"z.mat": hostile.MATZeros(side, side, 2)} },
		[]string{"train", "--data", "$D/z.mat", "--tree", "star", "--out", "$O/m.json"}, int64(side*side) + 64*MB, "z.mat", nil})
	return out
}

// hostileTextModel returns a text model of 'twl text train' on the label
// tree tr (an edge list), trained on four lines of fastText's format.
func hostileTextModel(tr []byte) []byte {
	dir, err := os.MkdirTemp("", "model")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	train := "__label__a hello world\n__label__b goodbye moon\n__label__a hello there\n__label__b bye now\n"
	os.WriteFile(filepath.Join(dir, "t.tree"), tr, 0o644)
	os.WriteFile(filepath.Join(dir, "train.txt"), []byte(train), 0o644)
	var stderr bytes.Buffer
	if run([]string{"text", "train", "--train", filepath.Join(dir, "train.txt"), "--tree", filepath.Join(dir, "t.tree"),
		"--epochs", "2", "--out", filepath.Join(dir, "m.json")}, nil, io.Discard, &stderr) != 0 {
		panic("text train: " + stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "m.json"))
	if err != nil {
		panic(err)
	}
	return b
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hostileTables are the BIOM 2.1 files of package biom's TestHostileHDF5,
// made again here (at the probe's sizes when full): a data dataset of 4·10⁸
// counts; 2,048 variable-length ids on one 1 MiB heap object; fixed-length
// one-byte ids of shape 100·2²⁰ [10⁸]; 40 [400] chunks of 8 MiB of zeros.
func hostileTables(full bool) map[string][]byte {
	out := map[string][]byte{}
	ids := func(h *hostile.HDF5) uint64 { return h.Strings([]string{"O0", "O1", "O2"}) }
	{
		h := hostile.NewHDF5()
		const n = 400_000_000
		chunk := hostile.ZlibZeros(8 << 20)
		out["4e8 counts"] = h.BIOM(hostile.Table{
			ObsIDs: ids(h), SampleIDs: h.Strings([]string{"S1", "S2"}),
			Data:    h.Chunked(hostile.Float64, []uint64{n}, []uint64{1 << 20}, []hostile.Chunk{{Zlib: chunk, Origin: []uint64{0}}}),
			Indices: h.Chunked(hostile.Int32, []uint64{n}, []uint64{2 << 20}, []hostile.Chunk{{Zlib: chunk, Origin: []uint64{0}}}),
			Indptr:  h.Contiguous(hostile.Int32, []uint64{3}, hostile.Int32s(0, 1, n)),
		})
	}
	{
		h := hostile.NewHDF5()
		heap := h.Heap(make([]byte, 1<<20))
		refs := make([]hostile.VlenRef, 2048)
		for i := range refs {
			refs[i] = hostile.VlenRef{Len: 1 << 20, Heap: heap, Obj: 1}
		}
		out["2048 ids on one object"] = h.BIOM(hostile.Table{
			ObsIDs: ids(h), SampleIDs: h.Contiguous(hostile.VlenString, []uint64{2048}, hostile.Vlen(refs)),
			Data:    h.Contiguous(hostile.Float64, []uint64{2}, hostile.Float64s(1, 1)),
			Indices: h.Contiguous(hostile.Int32, []uint64{2}, hostile.Int32s(0, 1)),
			Indptr:  h.Contiguous(hostile.Int32, []uint64{2049}, make([]byte, 4*2049)),
		})
	}
	{
		h := hostile.NewHDF5()
		const n = 100 << 20
		out["S1 ids"] = h.BIOM(hostile.Table{
			ObsIDs: ids(h), SampleIDs: h.Chunked(hostile.Fixed(1), []uint64{n}, []uint64{n}, []hostile.Chunk{{Zlib: hostile.ZlibZeros(n), Origin: []uint64{0}}}),
			Data:    h.Contiguous(hostile.Float64, []uint64{2}, hostile.Float64s(1, 1)),
			Indices: h.Contiguous(hostile.Int32, []uint64{2}, hostile.Int32s(0, 1)),
			Indptr:  h.Contiguous(hostile.Int32, []uint64{n + 1}, nil),
		})
	}
	{
		h := hostile.NewHDF5()
		k, per := 40, 1<<20
		if full {
			k = 400
		}
		chunk := hostile.ZlibZeros(8 << 20)
		var data []hostile.Chunk
		for i := range k {
			data = append(data, hostile.Chunk{Zlib: chunk, Origin: []uint64{uint64(i * per)}})
		}
		idx := make([]hostile.Chunk, 0, k/2)
		for i := range k / 2 {
			idx = append(idx, hostile.Chunk{Zlib: chunk, Origin: []uint64{uint64(2 * i * per)}})
		}
		out[strconv.Itoa(k)+" chunks of zeros"] = h.BIOM(hostile.Table{
			ObsIDs: ids(h), SampleIDs: h.Strings([]string{"S1", "S2"}),
			Data:    h.Chunked(hostile.Float64, []uint64{uint64(k * per)}, []uint64{uint64(per)}, data),
			Indices: h.Chunked(hostile.Int32, []uint64{uint64(k * per)}, []uint64{uint64(2 * per)}, idx),
			Indptr:  h.Contiguous(hostile.Int32, []uint64{3}, hostile.Int32s(0, 1, int32(k*per))),
		})
	}
	return out
}

// hostileResult is what a child process running twl gave.
type hostileResult struct {
	code   int
	stderr string
	rss    int64 // peak resident memory, bytes
	wall   time.Duration
}

// peakFileEnv names the file where a child writes its peak resident
// memory.
const peakFileEnv = "TWL_TEST_PEAK_FILE"

// writePeak writes to the file path the peak resident memory of this
// process, in bytes: VmHWM of /proc/self/status, which counts from the
// exec of the process. (The Maxrss that wait4 reports for a child also
// counts its parent's peak: Go starts a child by vfork, sharing the
// parent's memory until the exec, and Linux keeps that memory's peak.)
func writePeak(path string) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				os.WriteFile(path, []byte(strconv.FormatInt(kb*1024, 10)), 0o644)
			}
		}
	}
}

// runChild runs twl with args in a child process (this test binary, see
// TestMain), with TMPDIR set to tmp, and reads its peak memory (writePeak)
// from a file outside tmp.
func runChild(t *testing.T, tmp string, args []string, env ...string) hostileResult {
	t.Helper()
	peak := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), benchChildEnv+"=1", "TMPDIR="+tmp, peakFileEnv+"="+peak), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	r := hostileResult{stderr: stderr.String(), wall: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	b, err := os.ReadFile(peak)
	if err != nil {
		t.Skipf("no peak memory from the child (not Linux?): %v", err)
	}
	r.rss, _ = strconv.ParseInt(string(b), 10, 64)
	return r
}

// checkHostile runs the case and checks: exit status 1, one line on
// standard error that starts with "twl: " and names the file, peak memory
// within the case's bound, and no file written anywhere: the inputs'
// folder holds the inputs, the outputs' folder and TMPDIR nothing.
func checkHostile(t *testing.T, c hostileCase) hostileResult {
	dir, outDir, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	for name, b := range c.files() {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := dirNames(t, dir)
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.NewReplacer("$D", dir, "$O", outDir).Replace(a)
	}
	r := runChild(t, tmp, args, c.env...)
	file := c.file
	prefix := "twl: "
	if lookupCompat(c.args[0]) != nil {
		prefix = "twl " + c.args[0] + ": "
	}
	if !strings.Contains(file, ":") {
		file = filepath.Join(dir, c.file)
	}
	switch {
	case r.code != 1:
		t.Errorf("%s: exit status %d, want 1; stderr %.300q", c.name, r.code, r.stderr)
	case strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, "\n") || !strings.HasPrefix(r.stderr, prefix):
		t.Errorf("%s: stderr is not one line \"%s…\": %.500q", c.name, prefix, r.stderr)
	case !strings.Contains(r.stderr, file):
		t.Errorf("%s: stderr does not name %s: %q", c.name, file, r.stderr)
	}
	bound := c.rss
	if race.Enabled {
		bound = 4*bound + 64<<20 // the race detector's shadow memory
	}
	if r.rss > bound {
		t.Errorf("%s: peak memory %d MiB, more than %d MiB", c.name, r.rss>>20, bound>>20)
	}
	if after := dirNames(t, dir); !slices.Equal(after, before) {
		t.Errorf("%s: the inputs' folder holds %q, was %q", c.name, after, before)
	}
	for _, d := range []string{outDir, tmp} {
		if names := dirNames(t, d); len(names) > 0 {
			t.Errorf("%s: %s holds %q", c.name, d, names)
		}
	}
	return r
}

// TestHostileReading runs each reading case of hostileCases, scaled down,
// as a child process: see checkHostile.
func TestHostileReading(t *testing.T) {
	if testing.Short() {
		t.Skip("writes about 300 MB of hostile inputs")
	}
	for _, c := range hostileCases(false) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := checkHostile(t, c)
			t.Logf("exit %d, %4d MiB peak, %6.2f s: %.160s", r.code, r.rss>>20, r.wall.Seconds(), r.stderr)
		})
	}
}

// TestHostileFull runs the reading cases at the probe's sizes when
// HOSTILE_FULL=1 (by hand: it writes about 3 GB of inputs): each must also
// end within 5 s, its peak memory within --max-memory and 10 %.
//
//	HOSTILE_FULL=1 go test ./cmd/twl -run TestHostileFull -v -timeout 30m
func TestHostileFull(t *testing.T) {
	if os.Getenv("HOSTILE_FULL") != "1" {
		t.Skip("HOSTILE_FULL=1 runs the full-size cases")
	}
	for _, c := range hostileCases(true) {
		c.rss += c.rss / 10
		r := checkHostile(t, c)
		if r.wall > 5*time.Second {
			t.Errorf("%s: %.1f s", c.name, r.wall.Seconds())
		}
		t.Logf("%-28s exit %d, %5d MiB peak, %6.2f s: %.160s", c.name, r.code, r.rss>>20, r.wall.Seconds(), r.stderr)
	}
}
