//go:build linux

package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

var (
	bin     string // the buildstation binary under test
	workDir string // scratch space, removed at the end
)

// progress reports on stderr; the table alone goes to stdout.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench %s  "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "poller" {
		os.Exit(runPoller(os.Args[2:]))
	}
	flag.StringVar(&bin, "bin", "bin/buildstation", "the buildstation binary to measure")
	only := flag.String("only", "", "comma-separated figures to run (idle,throughput,timers,scheduler,startup); default all")
	idleFor := flag.Duration("idle", 30*time.Second, "how long each idle measurement lasts")
	mb := flag.Int("mb", 200, "megabytes pushed through a session for throughput")
	flag.Parse()
	var err error
	if bin, err = absPath(bin); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
	if workDir, err = os.MkdirTemp("", "bs-bench-"); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
	defer os.RemoveAll(workDir)

	want := func(name string) bool {
		return *only == "" || strings.Contains(","+*only+",", ","+name+",")
	}
	start := time.Now()
	var t table
	type figure struct {
		name string
		run  func(*table) error
	}
	for _, f := range []figure{
		{"idle", func(t *table) error { return benchIdle(t, *idleFor) }},
		{"throughput", func(t *table) error { return benchThroughput(t, *mb) }},
		{"timers", benchTimers},
		{"scheduler", benchScheduler},
		{"startup", benchStartup},
	} {
		if !want(f.name) {
			continue
		}
		progress("── %s", f.name)
		if err := f.run(&t); err != nil {
			progress("%s failed: %v", f.name, err)
			t.add(row{figure: f.name, ours: "FAILED", note: err.Error()})
		}
	}
	t.print(os.Stdout)
	fmt.Printf("\nbench took %s on %d CPUs (%s)\n", time.Since(start).Round(time.Second), numCPU(), kernel())
	if t.failed() {
		os.Exit(1)
	}
}
