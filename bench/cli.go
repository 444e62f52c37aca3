//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/cli"
	"github.com/buildstation/buildstation/supervisor"
)

// cliRuns is how many times each verb runs; the median CPU and the highest
// peak RSS are its figures. The figure is the worst of some fifty
// medians, so each median must be steady: of 5 runs, one busy moment on
// a shared machine moved a verb's by several milliseconds.
const cliRuns = 11

// cliVerbs are the CLI's verbs timed from exec to exit against a running
// station: what scripts and people run most, each reading the station.
var cliVerbs = [][]string{
	{"--version"},
	{"version"},
	{"help"},
	{"status"},
	{"task", "ls"},
	{"task", "add", "--project", "p", "--title", "bench"},
	{"task", "show", "ID"}, // the task added first
	{"session", "ls"},
	{"project", "ls"},
	{"source", "ls"},
	{"completion", "bash"},
}

// handedVerbs are verbs the installed command line hands to the app (it
// does not link their packages): the board verbs open SQLite or
// PostgreSQL themselves. Timed apart, without the target: they cost the
// command line's start plus the app's.
var handedVerbs = [][]string{
	{"board", "status"},
}

// helloBin is bench/hello, built: a Go hello-world, the CLI start
// figure's baseline. Empty: git --version is.
var helloBin string

// cliBin is the command line as the packages install it (cmd/buildstation,
// with the cgo app as buildstation-app beside it); empty: only the whole
// station build is measured.
var cliBin string

// benchCLI times every CLI verb's start, CPU (user + system, from the
// kernel's accounting of the exited process and, for a handed verb, the
// app it became) and peak RSS, for each build, against `git --version` in
// the same run.
func benchCLI(t *table) error {
	proj, _ := os.MkdirTemp(workDir, "cli-")
	home, err := newHome("cli", fmt.Sprintf("[[projects]]\nname = \"p\"\npath = %q\n", proj))
	if err != nil {
		return err
	}
	st, err := startStation(home)
	if err != nil {
		return err
	}
	defer st.stop()
	// Added tasks wait in the queue: no agent runs in this figure.
	if err := st.c.Pause(contextBG(), "p", "bench"); err != nil {
		return fmt.Errorf("pause p: %w", err)
	}
	first, err := st.c.AddTask(contextBG(), supervisor.NewTask{Project: "p", Title: "shown"})
	if err != nil {
		return fmt.Errorf("add a task to show: %w", err)
	}
	gitCPU, gitRSS, err := runCost(home, "git", "--version")
	if err != nil {
		return fmt.Errorf("git --version: %w", err)
	}
	// The baseline: a Go hello-world (Go's own start on this load), or git.
	baseCPU, baseRSS, baseName := gitCPU, gitRSS, "git --version"
	if helloBin != "" {
		if baseCPU, baseRSS, err = runCost(home, helloBin); err != nil {
			return fmt.Errorf("hello-world: %w", err)
		}
		baseName = "a Go hello-world"
	}
	type build struct {
		name, path string
		verbs      [][]string
		target     bool
		what       string // what was run, for the note
	}
	// The whole program (what `go install` makes, and what the rest of
	// the bench runs as the station) has no target: users install the
	// packages' command line.
	runs := "the commands scripts and people run most, each reading the station"
	builds := []build{{"CLI start, common verbs, whole station build (CGO_ENABLED=0, go install)", bin, cliVerbs, cliBin == "", runs}}
	installed := bin
	if cliBin != "" {
		installed = cliBin
		builds = append(builds,
			build{"CLI start, common verbs, installed build (buildstation, beside the cgo buildstation-app)", cliBin, cliVerbs, true, runs})
	}
	// Every command's start: its --help parses the line, builds the tree
	// and exits, as the command does before its own work.
	builds = append(builds, build{"CLI start, every command's --help, installed build", installed, everyCommand(), true,
		"each command of the tree with --help: the start every verb pays before its own work"})
	if cliBin != "" {
		builds = append(builds, build{"CLI start, the verbs the installed command line hands to the cgo app", cliBin, handedVerbs, false,
			"the board verbs, which open SQLite or PostgreSQL themselves: the command line's start plus the app's"})
	}
	for _, b := range builds {
		var worstCPU time.Duration
		var worstRSS int64
		var each []string
		verbs := make([][]string, len(b.verbs))
		for i, verb := range b.verbs {
			verbs[i] = slices.Clone(verb)
			if j := slices.Index(verb, "ID"); j >= 0 {
				verbs[i][j] = first.ID
			}
		}
		costs, err := runCosts(home, b.path, verbs)
		if err != nil {
			return fmt.Errorf("%s: %w", b.name, err)
		}
		for i, c := range costs {
			worstCPU, worstRSS = max(worstCPU, c.cpu), max(worstRSS, c.rss)
			each = append(each, fmt.Sprintf("`%s` %s %s", strings.Join(verbs[i], " "), ms(c.cpu), mib(float64(c.rss))))
		}
		r := row{figure: b.name, ours: fmt.Sprintf("%s CPU, %s", ms(worstCPU), mib(float64(worstRSS))),
			baseline: fmt.Sprintf("%s, %s (%s)", ms(baseCPU), mib(float64(baseRSS)), baseName),
			ratio:    ratio(float64(worstCPU), float64(baseCPU)),
			note: fmt.Sprintf("%s; the worst verb's median CPU (user+system) of %d runs and highest peak RSS (%s), against a running station (load %s; git --version %s, %s): %s",
				b.what, cliRuns, rssHow(), loadAvg(), ms(gitCPU), mib(float64(gitRSS)), strings.Join(each, "; "))}
		if b.target {
			r.target, r.met = "< 20 ms, < 20 MiB", metString(worstCPU < 20*time.Millisecond && worstRSS < 20<<10)
		}
		t.add(r)
	}
	return nil
}

// everyCommand is each runnable command of the tree with --help, but the
// board's, which the installed command line hands to the app (handedVerbs).
func everyCommand() [][]string {
	var out [][]string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.Fields(c.CommandPath())[1:]
		if c.Hidden || c.Name() == "help" || len(path) > 0 && path[0] == "board" {
			return
		}
		if c.Runnable() && len(path) > 0 {
			out = append(out, append(path, "--help"))
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(cli.Command())
	return out
}

// rusageBin is bench/rusage, which runs a command and reports its CPU and
// peak RSS: a child of this process would report at least this process's
// own RSS (see that program). Empty: the commands run as children here and
// their peak RSS is at least the bench's.
var rusageBin string

// runCost runs a command cliRuns times and returns its median CPU and its
// highest peak RSS in KiB.
func runCost(home, name string, args ...string) (time.Duration, int64, error) {
	c, err := runCosts(home, name, [][]string{args})
	if err != nil {
		return 0, 0, err
	}
	return c[0].cpu, c[0].rss, nil
}

// cost is a command's median CPU and highest peak RSS (KiB) over its runs.
type cost struct {
	cpu time.Duration
	rss int64
}

// runCosts runs name with each of argss cliRuns times, taking turns (each
// round runs every one once), so a busy moment of a shared machine falls
// on one run of many commands, not on every run of one.
func runCosts(home, name string, argss [][]string) ([]cost, error) {
	cpus := make([][]time.Duration, len(argss))
	out := make([]cost, len(argss))
	for range cliRuns {
		for i, args := range argss {
			cpu, rss, err := runOnce(home, name, args)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", strings.Join(args, " "), err)
			}
			cpus[i] = append(cpus[i], cpu)
			out[i].rss = max(out[i].rss, rss) // KiB on Linux
		}
	}
	for i := range out {
		slices.Sort(cpus[i])
		out[i].cpu = cpus[i][len(cpus[i])/2]
	}
	return out, nil
}

// runOnce runs a command and returns its CPU and peak RSS in KiB.
func runOnce(home, name string, args []string) (time.Duration, int64, error) {
	report := filepath.Join(workDir, "rusage.txt")
	c := exec.Command(name, args...)
	if rusageBin != "" {
		c = exec.Command(rusageBin, append([]string{report, name}, args...)...)
	}
	c.Env = env(home)
	if out, err := c.CombinedOutput(); err != nil {
		return 0, 0, fmt.Errorf("%v: %s", err, tailString(string(out)))
	}
	if rusageBin == "" {
		ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			return 0, 0, fmt.Errorf("no resource usage for %s", name)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss, nil
	}
	var user, sys, rss int64
	data, err := os.ReadFile(report)
	if err == nil {
		_, err = fmt.Sscan(string(data), &user, &sys, &rss)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("read %s's report: %w", rusageBin, err)
	}
	return time.Duration(user + sys), rss, nil
}

// rssHow says how the peak RSS was read.
func rssHow() string {
	if rusageBin != "" {
		return "each run started by bench/rusage, a small program, so the bench's own RSS is not carried into the figure"
	}
	return "each run a child of the bench, so at least the bench's own RSS: run with -rusage-bin for the command's own"
}
