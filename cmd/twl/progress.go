package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/twl-ldl/twl/internal/human"
)

// progressLine shows the progress within an epoch on one line rewritten
// with \r, at most twice a second, when live; the epoch lines written to it
// replace that line.
type progressLine struct {
	w           io.Writer
	live        bool
	shown       int // bytes of the line on screen
	last, start time.Time
	mark        time.Time // when the line began or the last epoch line was written
	epoch       int
}

func newProgressLine(w io.Writer, live bool) *progressLine {
	return &progressLine{w: w, live: live, mark: time.Now()}
}

// step shows that done of total units (noun) of epoch epoch of epochs
// are done: the share, the rate since the epoch began and the time to its
// end, at most twice a second.
func (p *progressLine) step(epoch, epochs, done, total int, noun string) {
	now := time.Now()
	if epoch != p.epoch {
		p.epoch, p.start = epoch, p.mark
	}
	if !p.live || now.Sub(p.last) < 500*time.Millisecond || done >= total {
		return
	}
	p.last = now
	line := fmt.Sprintf("epoch %d/%d  %d/%d %s (%.0f%%)", epoch, epochs, done, total, noun, 100*float64(done)/float64(total))
	if s := now.Sub(p.start).Seconds(); s > 0 {
		rate := float64(done) / s
		line += fmt.Sprintf("  %.0f %s/s  epoch ends in %s", rate, noun, human.Seconds(float64(total-done)/rate))
	}
	p.clear()
	fmt.Fprint(p.w, "\r"+line)
	p.shown = len(line)
}

// clear removes the line on screen.
func (p *progressLine) clear() {
	if p != nil && p.shown > 0 {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.shown)+"\r")
		p.shown = 0
	}
}

// Write writes an epoch line in place of the progress line.
func (p *progressLine) Write(b []byte) (int, error) {
	p.clear()
	p.mark = time.Now()
	return p.w.Write(b)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
