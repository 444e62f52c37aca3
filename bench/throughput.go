//go:build linux

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	engine "github.com/buildstation/buildstation/supervisor/station"

	"github.com/buildstation/buildstation/platform/evidence"
	"github.com/buildstation/buildstation/platform/pty"
	"github.com/buildstation/buildstation/platform/stationfs"
	"github.com/buildstation/buildstation/platform/tmux"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/store"
)

// throughputRuns is how many times each side of a throughput figure runs;
// the median is the figure. Each run of ours is paired with a run of its
// baseline, back to back, so a shared machine's load falls on both.
const throughputRuns = 3

// benchThroughput pushes mb megabytes through a session of each backend
// (terminal → ring buffer → transcript → watchdog) in an in-process
// station, each against the bare program it is built on, in the same run:
// the pty against `script -qfc cat` (a terminal read by a C program at its
// own speed), tmux against tmux alone (a detached session running the same
// cat, no client). Both sides have their fixed cost (a one-line file
// through the same path) taken off, so the figure is the output's rate.
func benchThroughput(t *table, mb int, backends []string) error {
	data := filepath.Join(workDir, "data.txt")
	size, err := writeData(data, int64(mb)<<20)
	if err != nil {
		return err
	}
	empty := filepath.Join(workDir, "one-line.txt")
	if _, err := writeData(empty, 1); err != nil {
		return err
	}
	// Bytes through a terminal: every \n becomes \r\n.
	shown := size + size/int64(len(dataLine))
	for _, backend := range backends {
		if err := throughputOf(t, backend, mb, data, empty, shown); err != nil {
			return fmt.Errorf("%s: %w", backend, err)
		}
	}
	return nil
}

// throughputOf measures one backend and adds its row.
func throughputOf(t *table, backend string, mb int, data, empty string, shown int64) error {
	baseName, base := "script -qfc cat", scriptCat
	if backend == "tmux" {
		baseName, base = "tmux alone", tmuxAlone
	}
	// Each run's fixed cost is noisy on a shared machine; the least of
	// them is taken off every run (a fixed cost larger than the real one
	// would make a rate of nothing).
	var oursD, theirsD, oursFixed, theirsFixed []time.Duration
	var cpus []string
	for i := range throughputRuns {
		progress("throughput %s: run %d of %d, %s", backend, i+1, throughputRuns, baseName)
		b0, err := base(empty, i)
		if err != nil {
			return fmt.Errorf("%s: %w", baseName, err)
		}
		b, err := base(data, i)
		if err != nil {
			return fmt.Errorf("%s: %w", baseName, err)
		}
		theirsFixed, theirsD = append(theirsFixed, b0), append(theirsD, b)
		progress("throughput %s: run %d of %d, through a session", backend, i+1, throughputRuns)
		o0, err := throughSession(backend, empty, fmt.Sprintf("%s-fixed-%d", backend, i), 0)
		if err != nil {
			return fmt.Errorf("session: %w", err)
		}
		o, err := throughSession(backend, data, fmt.Sprintf("%s-%d", backend, i), shown)
		if err != nil {
			return fmt.Errorf("session: %w", err)
		}
		oursFixed, oursD = append(oursFixed, o0.took), append(oursD, o.took)
		cpus = append(cpus, o.cpu.String())
	}
	rates := func(full, fixed []time.Duration) []float64 {
		f := slices.Min(fixed)
		var out []float64
		for _, d := range full {
			out = append(out, float64(shown)/max(d-f, time.Millisecond).Seconds())
		}
		return out
	}
	ours, theirs := rates(oursD, oursFixed), rates(theirsD, theirsFixed)
	o, b := median(ours), median(theirs)
	t.add(row{figure: fmt.Sprintf("throughput, %d MB through a %s session", mb, backend), ours: mbps(o), baseline: mbps(b),
		ratio: fmt.Sprintf("%.0f%%", o/b*100), target: "≥ 90%", met: metString(o >= 0.9*b),
		note: fmt.Sprintf("median of %d pairs run back to back (ours %s–%s, baseline %s–%s; load %s); ours: `cat` of the file as a session's agent in an in-process station "+
			"(store, %s spawner, probers as the daemon wires them), from task add until the session ended with the transcript's tail in place, "+
			"less the same for a one-line file (the fixed cost, the least of the runs': %s); baseline: %s of the same file, less its one-line run (%s); CPU of ours per run: %s",
			throughputRuns, mbps(slices.Min(ours)), mbps(slices.Max(ours)), mbps(slices.Min(theirs)), mbps(slices.Max(theirs)), loadAvg(),
			backend, slices.Min(oursFixed).Round(time.Millisecond), baseDoc(backend), slices.Min(theirsFixed).Round(time.Millisecond), strings.Join(cpus, "; "))})
	return nil
}

func baseDoc(backend string) string {
	if backend == "tmux" {
		return "a detached tmux session on a server of its own running the same cat, no client attached, timed until the pane's command ended"
	}
	return "`script -qfc 'cat FILE' /dev/null` (util-linux: a terminal copied by a C program), read from its stdout"
}

func mbps(bps float64) string { return fmt.Sprintf("%.0f MB/s", bps/1e6) }

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// loadAvg is the machine's 1-minute load average, said beside figures that
// a shared machine makes noisy.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

const dataLine = "0123456789 the quick brown fox jumps over the lazy dog abcdefgh\n"

// writeData writes at least n bytes (one line at the least) of 64-byte
// text lines.
func writeData(path string, n int64) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var written int64
	for written == 0 || written < n {
		k, _ := w.WriteString(dataLine)
		written += int64(k)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	return written, f.Close()
}

// scriptCat runs `script -qfc "cat FILE"` and reads its output dry: a
// terminal whose master is copied by a small C program as fast as it can.
func scriptCat(data string, _ int) (time.Duration, error) {
	t0 := time.Now()
	cmd := exec.Command("script", "-qfc", "cat "+shellQuote(data), "/dev/null")
	cmd.Stdin = nil
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	_, cerr := io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil || cerr != nil {
		return 0, errors.Join(err, cerr)
	}
	return time.Since(t0), nil
}

// tmuxAlone runs cat in a detached session of a tmux server of its own (no
// client: the floor is tmux's own parsing of the output) and times it
// until the pane's command ended.
func tmuxAlone(data string, run int) (time.Duration, error) {
	sock := filepath.Join(workDir, fmt.Sprintf("alone-%d-%d.sock", run, time.Now().UnixNano()))
	tm := func(args ...string) *exec.Cmd {
		c := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		c.Env = append(os.Environ(), "TMUX=")
		return c
	}
	defer tm("kill-server").Run()
	// The server first, so its start is not timed.
	if b, err := tm("new-session", "-d", "-s", "idle", "-x", strconv.Itoa(int(tmux.DefaultCols)), "-y", strconv.Itoa(int(tmux.DefaultRows))).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("tmux: %v %s", err, b)
	}
	done := fmt.Sprintf("done-%d", run)
	t0 := time.Now()
	if b, err := tm("new-window", "-d", "cat "+shellQuote(data)+"; tmux -S "+shellQuote(sock)+" wait-for -S "+done).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("tmux: %v %s", err, b)
	}
	if b, err := tm("wait-for", done).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("tmux wait-for: %v %s", err, b)
	}
	return time.Since(t0), nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// sessionRun is one run through a session: how long it took and the CPU it
// cost, by part.
type sessionRun struct {
	took time.Duration
	cpu  cpuSplit
}

// cpuSplit is where a run's CPU went: the station (this process), the
// tmux server, and the server's children it reaped (the agent, whose cat
// costs the same in the baseline, the launch script and pipe-pane's
// hand-over of the pipe).
type cpuSplit struct {
	station, server, helpers time.Duration
}

func (c cpuSplit) String() string {
	s := fmt.Sprintf("station %s", c.station.Round(10*time.Millisecond))
	if c.server > 0 || c.helpers > 0 {
		s += fmt.Sprintf(", tmux server %s, its children (agent, launch script, pipe hand-over) %s", c.server.Round(10*time.Millisecond), c.helpers.Round(10*time.Millisecond))
	}
	return s
}

// throughSession runs cat as the agent of one task in a station built from
// the supervisor packages, and times it from the task's add until the
// session ended with the output's tail in its transcript (want > 0: the
// bytes the terminal shows; the transcript is bounded by transcript_max,
// so only its end is checked).
func throughSession(backend, data, name string, want int64) (sessionRun, error) {
	proj, err := os.MkdirTemp(workDir, "tp-proj-")
	if err != nil {
		return sessionRun{}, err
	}
	home, err := newHome("throughput-"+name, fmt.Sprintf(`[[projects]]
name = "tp"
path = %q
command = ["cat", %q]
backend = %q
idle_window = "1h"
block_window = "1h"
`, proj, data, backend))
	if err != nil {
		return sessionRun{}, err
	}
	cfg, err := config.Load(home, config.Platform{})
	if err != nil {
		return sessionRun{}, err
	}
	board, err := store.Open(filepath.Join(home, config.FileDB))
	if err != nil {
		return sessionRun{}, err
	}
	defer board.Close()
	files, err := stationfs.New(home, "")
	if err != nil {
		return sessionRun{}, err
	}
	sock := filepath.Join(home, tmux.SocketName)
	defer endTmux(home)
	// pipe-pane hands each pane's output to the station through the
	// installed program (tmux.PipeVerb), as a real station's does.
	tm := tmux.New(sock)
	tm.Helper = bin
	st, err := engine.New(engine.Options{
		Home: home, Files: files, Environ: os.Environ, Config: cfg, Board: board, Spawner: pty.New(),
		Spawners: map[string]supervisor.Spawner{"tmux": tm},
		Probers:  []supervisor.Prober{evidence.NewCommits(evidence.CommitOptions{}), evidence.NewCPU(evidence.CPUOptions{})},
		Log:      slog.New(slog.DiscardHandler), URL: "http://127.0.0.1:1", Self: bin,
	})
	if err != nil {
		return sessionRun{}, err
	}
	sub := st.Sessions.Subscribe(1024)
	defer sub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	runErr := make(chan error, 1)
	go func() { runErr <- st.Run(ctx) }()
	defer func() { cancel(); <-runErr }()

	cpu0 := selfCPU()
	task, err := st.Tasks.AddTask(ctx, supervisor.NewTask{Project: "tp", Title: "throughput"})
	if err != nil {
		return sessionRun{}, err
	}
	server := 0 // the tmux server, found while the session runs
	took, err := waitEnded(sub, task, func() {
		if backend == "tmux" && server == 0 {
			server = tmuxServer(sock)
		}
	})
	if err != nil {
		return sessionRun{}, err
	}
	run := sessionRun{took: took, cpu: cpuSplit{station: selfCPU() - cpu0}}
	if server > 0 {
		// The server's own time, and its reaped children's (the hand-over,
		// the launch script, the agent): the agent is cat, whose time
		// is the same in the baseline, so the hand-over is the rest.
		if c, err := readCPU(server); err == nil {
			run.cpu.server = ticks(c.self)
			run.cpu.helpers = ticks(c.children)
		}
	}
	if want > 0 {
		if err := checkTranscript(filepath.Join(home, config.DirLogs, fmt.Sprintf("%s.%d.log", task.ID, task.Attempt)), data, cfg.TranscriptMax); err != nil {
			return sessionRun{}, err
		}
	}
	return run, nil
}

func ticks(n int64) time.Duration { return time.Duration(n) * time.Second / clkTck }

// selfCPU is this process's CPU time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// checkTranscript says whether the transcript at path ends with the
// data's last line and stays within its bound.
func checkTranscript(path, data string, limit int64) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if limit > 0 && fi.Size() > limit+4096 {
		return fmt.Errorf("transcript is %d bytes, over transcript_max %d", fi.Size(), limit)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	tail := make([]byte, 4096)
	n, _ := f.ReadAt(tail, max(fi.Size()-int64(len(tail)), 0))
	if !strings.Contains(strings.ReplaceAll(string(tail[:n]), "\r\n", "\n"), dataLine) {
		return fmt.Errorf("transcript %s (%d bytes) does not end with the output's last lines", path, fi.Size())
	}
	return nil
}

// waitEnded waits for the throughput session to end and returns how long
// it took: cat exits without completing, so the station blocks the task
// once the session's reader has drained the terminal. tick runs every
// 100 ms meanwhile.
func waitEnded(sub *supervisor.Subscription, task supervisor.Task, tick func()) (time.Duration, error) {
	t0 := time.Now()
	timeout := time.After(5 * time.Minute)
	tk := time.NewTicker(100 * time.Millisecond)
	defer tk.Stop()
	tick()
	for {
		select {
		case e := <-sub.C:
			if e.Kind != supervisor.EventTask || e.Task == nil || e.Task.ID != task.ID || e.Task.State != supervisor.TaskBlocked {
				continue
			}
			return time.Since(t0), nil
		case <-tk.C:
			tick()
		case <-timeout:
			return 0, errors.New("the session did not end in 5 minutes")
		}
	}
}
