package main

import (
	"fmt"
	"github.com/twl-ldl/twl/internal/human"
	"time"

	"github.com/twl-ldl/twl/experiment/all"
	"github.com/twl-ldl/twl/experiment/synthetic"
)

func runAll(e *env, args []string) error {
	var cfg all.Config
	f := newExpFlags("all", "twl experiment all [flags]", "report", "write the report to `DIR` (created if needed)", false, true, false)
	f.set("protocol", "Protocol", &cfg.Protocol, synthetic.ProtocolReduced, "the synthetic experiment's `PROTOCOL`: reduced or paper")
	f.set("quick", "Quick", &cfg.Quick, nil, "tiny sizes (a smoke test of the whole pipeline in seconds; the numbers mean nothing)")
	f.setting["OutDir"] = "out"
	if err := f.parseArgs(e, args); err != nil {
		return err
	}
	if !f.quiet {
		cfg.Progress = e.stderr
	}
	start := time.Now()
	cfg.OutDir, cfg.Context = f.out, e.ctx
	path, err := all.Run(cfg)
	if err != nil {
		return f.configError(err)
	}
	_, err = fmt.Fprintf(e.stdout, "wrote %s (%s)\n", path, human.Seconds(time.Since(start).Seconds()))
	return err
}
