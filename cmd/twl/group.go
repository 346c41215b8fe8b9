package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// group is a command with subcommands, such as twl experiment and twl
// text: 'twl NAME SUB [flags]'.
type group struct {
	name string     // the command
	noun string     // what a subcommand is called in messages: "experiment"
	subs []*command // in the order of the help; the help is help/NAME.txt
}

// usage writes the group's help.
func (g *group) usage(w io.Writer) {
	about, examples := helpOf(g.name)
	fmt.Fprintf(w, "Usage:\n  twl %s <%s> [flags]\n", g.name, g.noun)
	fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(about))
	fmt.Fprintf(w, "\n%ss:\n", strings.ToUpper(g.noun[:1])+g.noun[1:])
	for _, c := range g.subs {
		for i, line := range wrap(c.summary, 80-15) {
			name := c.name
			if i > 0 {
				name = ""
			}
			fmt.Fprintf(w, "  %-12s %s\n", name, line)
		}
	}
	fmt.Fprintf(w, "\nFlags:\n  Each %s has its own: run 'twl %s <%s> --help'.\n", g.noun, g.name, g.noun)
	fmt.Fprintf(w, "\nExamples:\n%s\n", strings.TrimRight(examples, "\n"))
}

// fail is a mistake in the subcommand's name.
func (g *group) fail(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), cmd: "twl " + g.name}
}

// run runs the subcommand named by args[0].
func (g *group) run(e *env, args []string) error {
	if len(args) == 0 {
		return g.fail("missing the %s name", g.noun)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		g.usage(e.stdout)
		return flag.ErrHelp
	}
	names := make([]string, len(g.subs))
	for i, c := range g.subs {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
		names[i] = c.name
	}
	return g.fail("unknown %s %q; the %ss are %s", g.noun, args[0], g.noun, strings.Join(names, ", "))
}
