package efficiency

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// ChildEnv is the environment variable that makes a process a peak-RSS
// measurement child: its value is the JSON of the case to measure.
const ChildEnv = "TWL_EFFICIENCY_CHILD"

// hooked records that this program calls RunChild, so that a copy of it
// started with ChildEnv measures instead of doing its usual work.
var hooked atomic.Bool

// childSpec is the case a child measures.
type childSpec struct {
	Method   string `json:"method"`
	Labels   int    `json:"labels"`
	Seed     uint64 `json:"seed"`
	Workers  int    `json:"workers"`
	MaxBytes int64  `json:"max_bytes"`
}

// childReport is what a child writes to its standard output.
type childReport struct {
	BaseRSS int64   `json:"base_rss"`
	PeakRSS int64   `json:"peak_rss"`
	Value   float64 `json:"value"`
}

// RunChild must be called first thing by any program that calls Run (in
// an init function of package main, or in TestMain): Run measures peak
// resident memory by starting the program again with ChildEnv set, and
// in that process RunChild builds the case, makes one call and writes its
// peak RSS to w as JSON. It reports whether the process is such a child;
// if so the caller should exit, with a failure status if err is not nil.
// In any other process it returns false, nil at once.
func RunChild(w io.Writer) (isChild bool, err error) {
	hooked.Store(true)
	spec, ok := os.LookupEnv(ChildEnv)
	if !ok {
		return false, nil
	}
	var cs childSpec
	if err := json.Unmarshal([]byte(spec), &cs); err != nil {
		return true, fmt.Errorf("efficiency: bad %s: %v", ChildEnv, err)
	}
	if !slices.Contains(Methods, cs.Method) || cs.Labels < 2 {
		return true, fmt.Errorf("efficiency: bad %s: %s", ChildEnv, spec)
	}
	base, err := PeakRSS()
	if err != nil {
		return true, err
	}
	inst, err := build(cs.Method, cs.Labels, cs.Seed, cs.Workers, cs.MaxBytes)
	if err != nil {
		return true, err
	}
	v, err := inst.op()
	if err != nil {
		return true, err
	}
	peak, err := PeakRSS()
	if err != nil {
		return true, err
	}
	runtime.KeepAlive(inst)
	return true, json.NewEncoder(w).Encode(childReport{BaseRSS: base, PeakRSS: peak, Value: v})
}

// rssAvailable reports whether peak RSS can be measured in child
// processes, and how (or why not), for Result.RSS.
func rssAvailable(cfg Config) (bool, string) {
	switch {
	case cfg.NoRSS:
		return false, "not measured (disabled)"
	case os.Getenv(ChildEnv) != "":
		return false, "not measured: this process is itself a measurement child"
	case !hooked.Load() && cfg.Executable == "":
		return false, "not measured: the program does not call efficiency.RunChild at start"
	}
	if _, err := PeakRSS(); err != nil {
		return false, "n/a: " + err.Error()
	}
	return true, "peak resident set (VmHWM) of a separate process that builds the case and makes one call"
}

// childTimeout bounds one measurement child.
const childTimeout = 10 * time.Minute

// measureRSS runs c's case in a separate process and records its peak
// RSS, or why it could not.
func measureRSS(cfg Config, c *Case, progress io.Writer) {
	exe := cfg.Executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			c.RSSNote = "n/a: " + err.Error()
			return
		}
	}
	spec, _ := json.Marshal(childSpec{Method: c.Method, Labels: c.Labels, Seed: cfg.Seed, Workers: cfg.Workers, MaxBytes: cfg.MaxBytes})
	ctx, cancel := context.WithTimeout(context.Background(), childTimeout)
	defer cancel()
	// The arguments make a test binary that lacks the hook run no tests;
	// with the hook they are never read.
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), ChildEnv+"="+string(spec))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var rep childReport
	if err == nil {
		err = json.Unmarshal(bytes.TrimSpace(lastLine(out.Bytes())), &rep)
	}
	if err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		c.RSSNote = fmt.Sprintf("n/a: measurement process failed: %v %s", err, msg)
		fmt.Fprintf(progress, "efficiency: L=%d %s: peak RSS %s\n", c.Labels, c.Method, c.RSSNote)
		return
	}
	c.PeakRSSBytes, c.BaseRSSBytes = rep.PeakRSS, rep.BaseRSS
	if rep.Value != c.Value {
		c.RSSNote = fmt.Sprintf("the separate process computed %v, not %v", rep.Value, c.Value)
	}
	fmt.Fprintf(progress, "efficiency: L=%d %s: peak RSS %s (%s at start)\n", c.Labels, c.Method,
		formatBytes(float64(rep.PeakRSS)), formatBytes(float64(rep.BaseRSS)))
}

// lastLine returns the last non-empty line of b.
func lastLine(b []byte) []byte {
	b = bytes.TrimRight(b, "\n")
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}
