package main

import (
	"context"
	"fmt"
	"os"
	"time"
	"runtime/pprof"

	"github.com/twl-ldl/twl/distmat"
	"github.com/twl-ldl/twl/permanova"
)

func main() {
	t0 := time.Now()
	m, err := distmat.ReadFile(os.Args[1], nil)
	if err != nil {
		panic(err)
	}
	t1 := time.Now()
	n := len(m.IDs)
	pm, err := permanova.New(m.D, n, 0)
	if err != nil {
		panic(err)
	}
	t2 := time.Now()
	labels := make([]string, n)
	for i := range labels {
		labels[i] = fmt.Sprint(i % 4)
	}
	r, _ := pm.Test(context.Background(), labels, nil)
	t3 := time.Now()
	fmt.Println(t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), r.F, r.P)
	pprof.StopCPUProfile()
}

func init() {
	if os.Getenv("PROF") != "" {
		f, _ := os.Create(os.Getenv("PROF"))
		pprof.StartCPUProfile(f)
		go func() { time.Sleep(20 * time.Second) }()
	}
}
