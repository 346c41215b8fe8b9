package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/twl-ldl/twl/internal/atomicfile"
)

// env is what a command sees of the process: its streams, and a context
// that is cancelled when the process is asked to stop (SIGINT, SIGTERM).
// Long-running commands check e.ctx between units of work (rows, epochs,
// folds) and return e.ctx.Err(); their deferred clean-ups then remove
// temporary files and keep the last complete checkpoint. Tests run commands
// in-process with buffers and a context of their own.
type env struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
	// onFlags, when set (by tests), sees the flag set of every command
	// that parses its arguments.
	onFlags func(*flags)
}

// stopped returns the context's error once the process has been asked to
// stop, and nil before.
func (e *env) stopped() error {
	if e.ctx == nil {
		return nil
	}
	return e.ctx.Err()
}

// A command is one subcommand of twl. Its run function parses its own flags
// with newFlags and returns an error; it never exits the process.
type command struct {
	name    string
	summary string
	run     func(e *env, args []string) error
}

// commands lists the subcommands in the order of the main usage.
var commands = []*command{
	{"demo", "a first run on built-in data: what TW measures, and how fast", runDemo},
	{"distance", "tree-Wasserstein distances between label distributions", runDistance},
	{"eval", "score predicted label distributions against targets", runEval},
	{"train", "fit a label-distribution model (KL, KL + λ·TW, KL + λ·Sinkhorn, KL + λ·TSW) to data", runTrain},
	{"predict", "predict label distributions with a trained model", runPredict},
	{"cv", "repeated k-fold cross-validation of training, every measure", runCV},
	{"bench", "time the kernels and commands at several sizes", runBench},
	{"synth", "generate the paper's synthetic data set (Algorithm 1)", runSynth},
	{"experiment", "reproduce the paper's experiments and tables as reports", runExperiment},
	{"text", "labelled text: statistics, the LSTM text model", runText},
	{"tree", "label trees built from points: word vectors, label names", runTree},
	{"unifrac", "UniFrac distances between all pairs of samples on a phylogeny; sharded runs and their merge", runUnifrac},
	{"permanova", "PERMANOVA: do groups of samples differ, given their distance matrix (pseudo-F, permutation p-value)", runPermanova},
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// groups are the commands with subcommands of their own (twl text stats):
// the main usage lists their subcommands too.
var groups = []*group{experiments, texts, trees}

// subcommands returns the subcommands of the group named name, nil for a
// command that is no group.
func subcommands(name string) []*command {
	for _, g := range groups {
		if g.name == name {
			return g.subs
		}
	}
	return nil
}

// moreCommands are the subcommands of commands that run with flags of their
// own too (twl unifrac, twl unifrac merge), for the main usage.
var moreCommands = map[string][]*command{
	"unifrac": {{"merge", "join the partial files of a sharded twl unifrac into one matrix", runUnifracMerge}},
}

// allSubcommands returns the subcommands of the command named name: a
// group's, or those in moreCommands.
func allSubcommands(name string) []*command {
	return slices.Concat(subcommands(name), moreCommands[name])
}

func mainUsage(w io.Writer) {
	fmt.Fprint(w, `twl: learning with the tree-Wasserstein distance over label hierarchies

Usage:
  twl <command> [flags] [arguments]

Commands:
`)
	const indent = 24
	line := func(name, summary string) {
		for i, s := range wrap(summary, 79-indent) {
			if i > 0 {
				name = ""
			}
			if len(name) > indent-3 {
				fmt.Fprintf(w, "  %s\n", name)
				name = ""
			}
			fmt.Fprintf(w, "  %-*s%s\n", indent-2, name, s)
		}
	}
	for _, c := range commands {
		line(c.name, c.summary)
		for _, sub := range allSubcommands(c.name) {
			line(c.name+" "+sub.name, sub.summary)
		}
	}
	line("help", "show the help of a command")
	line("version", "print twl's version (also twl --version)")
	fmt.Fprint(w, `
Run 'twl help <command>' or 'twl <command> --help' for its flags and examples.
Start with 'twl demo'.
`)
}

// usageError is a mistake in the command line: its message and where to
// find the command's help go to standard error, two lines in all, and the
// exit status is 2.
type usageError struct {
	fs  *flags // nil for a group's mistake (twl experiment nope)
	msg string
	cmd string // when fs is nil: the command ("twl experiment")
}

func (e *usageError) Error() string { return e.msg }

// run runs twl with the arguments args (without the program name) and
// returns the exit status: 0 on success, 1 on an error, 2 on a mistake in
// the command line. It recovers from panics, which are bugs, so that a user
// never sees a stack trace.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext is run with a context whose cancellation asks the command to
// stop.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "twl: internal error: %v\n"+
				"This is a bug in twl; please report it with the command line that caused it.\n", r)
			status = 1
		}
	}()
	if len(args) == 0 {
		mainUsage(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if name != "help" || len(args) == 1 || len(args) == 2 && isHelpWord(args[1]) {
			mainUsage(stdout)
			return 0
		}
		c := lookup(args[1])
		isSub := func(s *command) bool { return s.name == args[2] }
		if c == nil || len(args) > 3 || len(args) == 3 && !slices.ContainsFunc(allSubcommands(c.name), isSub) {
			fmt.Fprintf(stderr, "twl help: unknown command %q\nsee 'twl help'\n", strings.Join(args[1:], " "))
			return 2
		}
		return report(e, c.name, c.run(e, append(slices.Clone(args[2:]), "--help"))) // twl help text train
	}
	if name == "version" || name == "--version" || name == "-version" {
		if len(args) > 1 && !isHelpWord(args[1]) || len(args) > 2 {
			fmt.Fprintf(stderr, "twl version: takes no arguments\nsee 'twl help'\n")
			return 2
		}
		if len(args) == 2 {
			fmt.Fprint(stdout, "Usage:\n  twl version\n  twl --version\n\nPrints the version of twl: the module version it was built as, with the\nrevision of the checkout it was built from when there is one.\n")
			return 0
		}
		fmt.Fprintln(stdout, versionLine())
		return 0
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "twl: unknown command %q\nsee 'twl help'\n", name)
		return 2
	}
	return report(e, c.name, c.run(e, args[1:]))
}

// versionLine returns what twl version prints: "twl VERSION", VERSION the
// module version ("(devel)" when built inside its own module), then the VCS
// revision and whether the checkout had local changes, when the build
// recorded them.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "twl (devel)"
	}
	line := "twl " + cmp.Or(info.Main.Version, "(devel)")
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		line += ", revision " + rev
		if modified == "true" {
			line += " with local changes"
		}
	}
	return line
}

// isHelpWord reports whether a is a way of asking for help: twl help help,
// twl help --help.
func isHelpWord(a string) bool {
	switch a {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

// report prints the error a command returned and gives the exit status.
func report(e *env, name string, err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case e.ctx != nil && e.ctx.Err() != nil:
		// Stopped on request: whatever the command was doing when it
		// noticed, its outputs are untouched or complete.
		var s *stopSignal
		if errors.As(context.Cause(e.ctx), &s) {
			fmt.Fprintf(e.stderr, "twl %s: %v; no file is left half-written\n", name, s)
			return signalStatus(s.sig)
		}
		fmt.Fprintf(e.stderr, "twl %s: %v\n", name, context.Cause(e.ctx))
		return 1
	case errors.As(err, &ue):
		// The message and a pointer to the help: the synopsis, flags and
		// examples are a --help away, not in the way of the message.
		cmd := "twl " + name
		if ue.cmd != "" {
			cmd = ue.cmd
		}
		if ue.fs != nil {
			cmd = ue.fs.Name() // a subcommand's flags name it: "twl text stats"
		}
		fmt.Fprintf(e.stderr, "%s: %s\nsee '%s --help'\n", cmd, ue.msg, cmd)
		return 2
	default:
		fmt.Fprintf(e.stderr, "twl: %v\n", err)
		return 1
	}
}

// output writes the complete output of a command: to standard output, or
// atomically to the file path if it is not empty. Commands compute all of
// their output before calling it, so that an error leaves nothing
// half-written.
func (e *env) output(path string, data []byte) error {
	if path == "" || path == "-" {
		_, err := e.stdout.Write(data)
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}

// open returns a reader for the input named by path, "-" being standard
// input, and the name to use in messages.
func (e *env) open(path string) (io.ReadCloser, string, error) {
	if path == "-" {
		return io.NopCloser(e.stdin), "<stdin>", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, path, err
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, path, fmt.Errorf("%s: is a directory, not a file", path)
	}
	return f, path, nil
}

// stopSignal is the cause of the context's cancellation when the process
// receives a signal.
type stopSignal struct{ sig os.Signal }

func (s *stopSignal) Error() string { return "stopped by " + signalName(s.sig) }

// signalName returns "SIGINT" or "SIGTERM".
func signalName(s os.Signal) string {
	if s == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// signalStatus is the exit status after signal s, 128 + its number as
// shells report it: 130 for SIGINT, 143 for SIGTERM.
func signalStatus(s os.Signal) int {
	if s == syscall.SIGTERM {
		return 143
	}
	return 130
}

// spillBytes is how much output a streaming command holds back from
// standard output before it starts to write it: an error found in the first
// spillBytes of output leaves standard output empty, as for the commands
// that compute everything first.
const spillBytes = 64 << 20

// stream is the output of a command that writes as it goes: to a file,
// atomically (nothing at the destination until Commit), or to standard
// output, held back up to spillBytes and then written through.
type stream struct {
	file *atomicfile.File // nil for standard output
	w    io.Writer        // standard output
	warn io.Writer        // standard error, for a warning on Abort
	buf  []byte           // held-back output, until it passes spillBytes
	err  error
	out  bool // whether anything reached standard output
	done bool // Commit or Abort was called
}

// create starts the output of a streaming command: to the file path, or to
// standard output if path is "" or "-". It fails at once if the file cannot
// be created, before any work is done. The caller must Commit or Abort.
func (e *env) create(path string) (*stream, error) {
	if path == "" || path == "-" {
		return &stream{w: e.stdout, warn: e.stderr}, nil
	}
	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		return nil, err
	}
	return &stream{file: f}, nil
}

func (s *stream) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.file != nil {
		_, s.err = s.file.Write(p)
		return len(p), s.err
	}
	if s.buf != nil || !s.out {
		s.buf = append(s.buf, p...)
		if len(s.buf) < spillBytes {
			return len(p), nil
		}
		p, s.buf = s.buf, nil
	}
	if !s.out {
		s.out = true
		s.w = bufio.NewWriterSize(s.w, 1<<16)
	}
	_, s.err = s.w.Write(p)
	return len(p), s.err
}

// Commit publishes the output: renames the file into place, or writes what
// is held back to standard output.
func (s *stream) Commit() error {
	s.done = true
	if s.file != nil {
		if s.err != nil {
			s.file.Abort()
			return s.err
		}
		return s.file.Commit()
	}
	if s.err == nil && len(s.buf) > 0 {
		_, s.err = s.w.Write(s.buf)
	}
	s.buf = nil
	if b, ok := s.w.(*bufio.Writer); ok && s.err == nil {
		s.err = b.Flush()
	}
	return s.err
}

// Abort drops the output: removes the temporary file, or discards what is
// held back from standard output. It can be deferred: after Commit it does
// nothing.
//
// Past spillBytes on standard output, what was written cannot be taken
// back: Abort then writes out the whole rows still buffered (callers write
// whole rows), so the output ends at a row's end, and warns on standard
// error that it is incomplete.
func (s *stream) Abort() {
	if s.done {
		return
	}
	s.done = true
	if s.file != nil {
		s.file.Abort()
		return
	}
	s.buf = nil
	if b, ok := s.w.(*bufio.Writer); ok && s.out {
		if s.err == nil {
			s.err = b.Flush()
		}
		s.out = false // warn once
		fmt.Fprintf(s.warn, "twl: warning: standard output is incomplete: it holds the rows written before the command stopped (more than %d MiB)\n", spillBytes>>20)
	}
}
