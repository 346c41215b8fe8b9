package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
)

// group is a command with subcommands, such as twl experiment and twl
// text: 'twl NAME SUB [flags]'.
type group struct {
	name     string     // the command
	noun     string     // what a subcommand is called in messages: "experiment"
	subs     []*command // in the order of the help
	about    string
	examples string
}

// usage writes the group's help: with full, the description and examples
// as well.
func (g *group) usage(w io.Writer, full bool) {
	fmt.Fprintf(w, "Usage:\n  twl %s <%s> [flags]\n", g.name, g.noun)
	if full {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(g.about))
	}
	fmt.Fprintf(w, "\n%ss:\n", strings.ToUpper(g.noun[:1])+g.noun[1:])
	for _, c := range g.subs {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nFlags:\n  Each %s has its own: run 'twl %s <%s> --help'.\n", g.noun, g.name, g.noun)
	if full {
		fmt.Fprintf(w, "\nExamples:\n%s\n", strings.TrimRight(g.examples, "\n"))
	}
}

// fail is a mistake in the subcommand's name: the message and the short
// usage.
func (g *group) fail(format string, args ...any) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, format+"\n\n", args...)
	g.usage(&b, false)
	return &usageError{msg: strings.TrimRight(b.String(), "\n")}
}

// run runs the subcommand named by args[0].
func (g *group) run(e *env, args []string) error {
	if len(args) == 0 {
		return g.fail("missing the %s name", g.noun)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		g.usage(e.stdout, true)
		return flag.ErrHelp
	}
	for _, c := range g.subs {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	return g.fail("unknown %s %q", g.noun, args[0])
}
