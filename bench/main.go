//go:build linux

package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

var (
	bin     string // the buildstation binary under test
	workDir string // scratch space, removed at the end
)

// startProfile starts a CPU profile into path; stop ends and writes it.
func startProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// progress reports on stderr; the table alone goes to stdout.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench %s  "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "poller" {
		os.Exit(runPoller(os.Args[2:]))
	}
	flag.StringVar(&bin, "bin", "bin/buildstation", "the buildstation binary to measure")
	only := flag.String("only", "", "comma-separated figures to run (idle,throughput,timers,scheduler,adds,startup,cli,reads,concurrent,logs); default all")
	flag.StringVar(&rusageBin, "rusage-bin", "", "bench/rusage, built: the CLI start figure's commands run under it, so their peak RSS is their own (bench.sh builds it)")
	flag.StringVar(&helloBin, "hello-bin", "", "bench/hello, built: the CLI start figure's baseline, a Go hello-world (bench.sh builds it); empty: git --version")
	flag.StringVar(&cliBin, "cli-bin", "", "the command line as installed (cmd/buildstation, with the cgo buildstation-app beside it), whose CLI start is measured too")
	idleFor := flag.Duration("idle", 10*time.Second, "how long each idle measurement lasts")
	keep := flag.Bool("keep", false, "keep the scratch folder (station homes and logs) for a look afterwards")
	noBaseline := flag.Bool("no-baseline", false, "skip the poller baseline of the idle figure (a quick look at our own cost)")
	backendList := flag.String("backends", "pty,tmux", "the backends measured idle and for throughput")
	sessions := flag.String("sessions", "0,100,300", "the numbers of idle sessions measured, ascending (the figures with targets are at 100 and 300)")
	mb := flag.Int("mb", 100, "megabytes pushed through a session for throughput")
	logsMB := flag.Int("logs-mb", 1024, "megabytes of the transcript `logs` is measured on")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the bench process (the in-process station of throughput) to this file")
	flag.Parse()
	if *cpuprofile != "" {
		stop, err := startProfile(*cpuprofile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench: -cpuprofile: %v\n", err)
			os.Exit(1)
		}
		defer stop()
	}
	var err error
	if bin, err = absPath(bin); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
	if workDir, err = os.MkdirTemp("", "bs-bench-"); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
	if *keep {
		progress("keeping the scratch homes in %s", workDir)
	}
	// However the bench ends (a figure failed, Ctrl-C, SIGTERM), it stops
	// what it started and removes its scratch folder.
	end := func() { cleanUp(*keep) }
	onSignal(end)

	counts, err := parseCounts(*sessions)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: -sessions: %v\n", err)
		os.Exit(2)
	}
	idle := func(t *table) error {
		return benchIdle(t, *idleFor, counts, strings.Split(*backendList, ","), *noBaseline)
	}
	start := time.Now()
	load0 := loadAvg()
	t := runFigures(*only, idle, *mb, *logsMB, strings.Split(*backendList, ","))
	t.print(os.Stdout)
	fmt.Printf("\nbench took %s on %d CPUs (%s), load %s at the start and %s at the end; each figure: %s\n",
		time.Since(start).Round(time.Second), numCPU(), kernel(), load0, loadAvg(), strings.Join(t.took, ", "))
	end()
	if t.failed() {
		os.Exit(1)
	}
}

// live are the stations running, by home, for cleanUp.
var live sync.Map // *station → home

// cleanUp stops the stations still running and their tmux servers, and the
// poller baseline's, then removes the scratch folder unless keep.
func cleanUp(keep bool) {
	live.Range(func(k, v any) bool {
		k.(*station).stop()
		endTmux(v.(string))
		return true
	})
	_ = exec.Command("tmux", "-L", pollerSocket(), "kill-server").Run()
	if !keep {
		if err := os.RemoveAll(workDir); err != nil {
			progress("could not remove the scratch folder: %v", err)
		}
	}
}

// onSignal runs end and exits on SIGINT or SIGTERM.
func onSignal(end func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		progress("%v: stopping the stations and removing %s", s, workDir)
		end()
		os.Exit(130)
	}()
}

// runFigures measures each figure that only names (all when only is
// empty), in a fixed order; a figure that fails is a FAILED row, and the
// others still run.
func runFigures(only string, idle func(*table) error, mb, logsMB int, backends []string) *table {
	want := func(name string) bool {
		return only == "" || strings.Contains(","+only+",", ","+name+",")
	}
	var t table
	type figure struct {
		name string
		run  func(*table) error
	}
	// The CLI's start runs first: a dozen milliseconds of CPU per run is
	// what a machine still busy with a figure before it (the adds' 16
	// clients, a station's shutdown) moves most, and the idle figure
	// after it starts its own sessions.
	for _, f := range []figure{
		{"cli", benchCLI},
		{"idle", idle},
		{"throughput", func(t *table) error { return benchThroughput(t, mb, backends) }},
		{"timers", benchTimers},
		{"scheduler", benchScheduler},
		{"adds", benchAdds},
		{"startup", benchStartup},
		{"reads", benchReads},
		{"concurrent", benchConcurrent},
		{"logs", func(t *table) error { return benchLogs(t, logsMB) }},
	} {
		if !want(f.name) {
			continue
		}
		progress("── %s", f.name)
		t0 := time.Now()
		if err := f.run(&t); err != nil {
			progress("%s failed: %v", f.name, err)
			t.add(row{figure: f.name, ours: "FAILED", note: err.Error()})
		}
		took := time.Since(t0).Round(time.Second)
		progress("%s took %s", f.name, took)
		t.took = append(t.took, fmt.Sprintf("%s %s", f.name, took))
	}
	return &t
}

// parseCounts reads "0,10,100" into ascending counts.
func parseCounts(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || len(out) > 0 && n <= out[len(out)-1] {
			return nil, fmt.Errorf("%q is not a list of ascending numbers, like 0,10,100,300", s)
		}
		out = append(out, n)
	}
	return out, nil
}
