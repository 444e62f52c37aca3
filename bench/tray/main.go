//go:build linux && cgo

package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"

	"github.com/buildstation/buildstation/app"
	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

const endMark = "FLOOD-STOPPED"

var profileTo, memProfileTo string

// atExit are stops to run however the bench leaves (the station).
var atExit []func()

func main() {
	if len(os.Args) > 2 && os.Args[1] == "flood" {
		flood(os.Args[2])
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "empty-fyne" {
		emptyFyne()
		return
	}
	bin := flag.String("bin", "bin/buildstation", "the buildstation binary (station and fake agent)")
	dur := flag.Duration("for", 45*time.Second, "how long each phase (console closed, console open) lasts")
	trayBin := flag.String("tray-bin", "", "the buildstation binary built with cgo (the tray), for the idle figure; empty skips it")
	idleFor := flag.Duration("idle", 20*time.Second, "how long each idle measurement lasts")
	only := flag.String("only", "", "console or idle; default both")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the console-open phase here")
	memprofile := flag.String("memprofile", "", "write heap profiles here at the console-closed phase's start (suffix .start) and the console-open phase's end")
	flag.Parse()
	profileTo, memProfileTo = *cpuprofile, *memprofile
	stopX, err := startDisplay()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench tray:", err)
		os.Exit(1)
	}
	code := 0
	if *only == "" || *only == "idle" {
		if *trayBin == "" {
			progress("no -tray-bin: the idle figure is skipped")
		} else if err := benchIdle(*trayBin, *idleFor); err != nil {
			fmt.Fprintln(os.Stderr, "bench tray idle:", err)
			code = 1
		}
	}
	if *only == "" || *only == "console" {
		// The console figure runs the app in this process, and Fyne
		// quits the process with it: it goes last.
		if err := run(*bin, *dur, stopX); err != nil {
			fmt.Fprintln(os.Stderr, "bench tray:", err)
			code = 1
		}
	}
	stopX()
	os.Exit(code)
}

// startDisplay starts a virtual X server and a private session bus and
// points this process (and what it starts) at them. stopX ends what the
// bench started; it also runs on the frozen-UI path, which leaves by
// os.Exit without the deferred stops.
func startDisplay() (stopX func(), err error) {
	display, stopXvfb, err := startXvfb()
	if err != nil {
		return nil, err
	}
	// A private session bus: without one, D-Bus clients (Fyne's, the
	// tray's) autolaunch a bus daemon that outlives the bench.
	bus, stopBus, err := startBus()
	if err != nil {
		stopXvfb()
		return nil, err
	}
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
	os.Setenv("DISPLAY", display)
	os.Unsetenv("WAYLAND_DISPLAY")
	return func() {
		for _, f := range atExit {
			f()
		}
		stopBus()
		stopXvfb()
	}, nil
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench %s  tray: "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// flood prints about 1 MB/s of what an agent's TUI prints while it works:
// coloured log lines, bold and dim text, cursor moves into a status area
// and a spinner redrawn in place. It stops when stopFile appears, prints
// endMark, and waits to be ended.
func flood(stopFile string) {
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	spin := []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
	const perTick = 10 << 10 // 10 KB every 10 ms
	tick := time.NewTicker(10 * time.Millisecond)
	n := 0
	for range tick.C {
		if _, err := os.Stat(stopFile); err == nil {
			fmt.Fprintf(w, "\x1b[0m\r\n%s\r\n", endMark)
			w.Flush()
			select {}
		}
		written := 0
		for written < perTick {
			n++
			var line string
			switch n % 5 {
			case 0:
				line = fmt.Sprintf("\x1b[32m✓\x1b[0m test %d passed \x1b[2m(%d ms)\x1b[0m\r\n", n, n%97)
			case 1:
				line = fmt.Sprintf("\x1b[1;34mReading\x1b[0m internal/pkg%d/file_%d.go \x1b[33m%d lines\x1b[0m\r\n", n%13, n, n%400)
			case 2:
				line = fmt.Sprintf("\x1b[31merror\x1b[0m: \x1b[1mexpected %d, got %d\x1b[0m at line %d\r\n", n, n+1, n%300)
			case 3:
				line = fmt.Sprintf("\x1b7\x1b[1;60H\x1b[7m tokens %7d \x1b[0m\x1b8", n*13)
			default:
				line = fmt.Sprintf("\r\x1b[K\x1b[36m%s\x1b[0m Thinking… \x1b[3m%ds\x1b[0m", spin[n%len(spin)], n/100)
			}
			w.WriteString(line)
			written += len(line)
		}
		w.Flush()
	}
}

// startXvfb runs a virtual X server and returns its display.
func startXvfb() (string, func(), error) {
	r, wr, err := os.Pipe()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1600x1000x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{wr}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start Xvfb (apt-get install xvfb): %w", err)
	}
	wr.Close()
	stop := func() { cmd.Process.Kill(); cmd.Wait() }
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("start Xvfb: it printed no display number: %w", err)
	}
	return ":" + strings.TrimSpace(line), stop, nil
}

type phase struct {
	name       string
	frames     int64
	elapsed    time.Duration
	clicks     []time.Duration
	rssStart   int64
	rssPeak    int64
	goStart    int64 // the Go runtime's memory (heap headroom included) at the start
	goPeak     int64
	goAtStart  goBreakdown   // the Go runtime's memory by class at the start
	goAtPeak   goBreakdown   // and when it held the most
	gcCPU      float64       // the share of the process's CPU time spent in the GC
	lastScreen time.Duration // console open: output stop to the last screen shown
}

func run(bin string, dur time.Duration, stopX func()) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "bs-bench-tray-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	home, stopFile, cl, stopStation, err := floodStation(bin, self, work)
	if err != nil {
		return err
	}
	var stopped sync.Once
	stop := func() { stopped.Do(stopStation) }
	atExit = append(atExit, stop)
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	task, err := cl.AddTask(ctx, supervisor.NewTask{Project: "flood", Title: "Print 1 MB/s of ANSI"})
	if err != nil {
		return fmt.Errorf("add the flood task: %w", err)
	}

	var frames atomic.Int64
	var endSeen atomic.Int64 // unix nanos of the first frame showing endMark
	a := fyneapp.NewWithID("dev.buildstation.bench")
	ui := benchUI(a, home, &frames, &endSeen)
	var result []phase
	var runErr error
	var once sync.Once
	a.Lifecycle().SetOnStarted(func() {
		ui.Start(ctx, false)
		once.Do(func() {
			go func() {
				result, runErr = measure(ctx, cl, ui, task.ID, dur, stopFile, &frames, &endSeen)
				if runErr == nil {
					print(result, dur)
				}
				quitOrExit(a, stopX)
			}()
		})
	})
	a.Run()
	return runErr
}

// benchUI is the app's windows alone (the tray process is measured apart,
// idle.go) on the station at home. It counts the console's frames and
// notes, in unix nanos, the first frame that shows endMark.
func benchUI(a fyne.App, home string, frames, endSeen *atomic.Int64) *app.UI {
	return app.New(app.Options{
		App: a,
		Connect: func(ctx context.Context, first bool) (app.Client, error) {
			return client.Dial(home)
		},
		OnConsoleFrame: func(id string, rows []widget.TextGridRow) {
			frames.Add(1)
			if endSeen.Load() == 0 && rowsContain(rows, endMark) {
				endSeen.Store(time.Now().UnixNano())
			}
		},
	})
}

// floodStation starts a station in a home under work whose one project's
// agent is this program's flood, and returns the home, the file that
// stops the flood, a client, and how to stop the station.
func floodStation(bin, self, work string) (home, stopFile string, cl *client.Client, stop func(), err error) {
	home = filepath.Join(work, "home")
	project := filepath.Join(work, "project")
	stopFile = filepath.Join(work, "stop")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return "", "", nil, nil, err
		}
	}
	cfg := fmt.Sprintf("[[projects]]\nname = \"flood\"\npath = %q\ncommand = [%q, \"flood\", %q]\nidle_window = \"10m\"\nblock_window = \"10m\"\n", project, self, stopFile)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		return "", "", nil, nil, err
	}
	cl, stop, err = startStation(bin, home)
	if err != nil {
		return "", "", nil, nil, err
	}
	return home, stopFile, cl, stop, nil
}

// quitOrExit quits the Fyne app once the figures are out. A frozen UI
// thread never runs the quit: it gets a while, then the bench stops what
// it started and leaves without it.
func quitOrExit(a fyne.App, stopX func()) {
	go fyne.Do(a.Quit)
	time.Sleep(10 * time.Second)
	fmt.Fprintln(os.Stderr, "bench tray: the UI did not quit within 10s of the end (frozen)")
	stopX()
	os.Exit(1)
}

// startStation runs `bin daemon` on home (the e2e suites' harness) until
// its API answers, and returns a client and how to stop it.
func startStation(bin, home string) (*client.Client, func(), error) {
	d, err := rig.StartDaemon(bin, home, os.Environ(), nil)
	if err != nil {
		return nil, nil, err
	}
	stop := func() { d.StopWithin(15 * time.Second) }
	if err := d.WaitReady(30*time.Second, 100*time.Millisecond); err != nil {
		stop()
		return nil, nil, err
	}
	cl, err := client.Dial(home)
	if err != nil {
		stop()
		return nil, nil, err
	}
	return cl, stop, nil
}

func rowsContain(rows []widget.TextGridRow, s string) bool {
	for i := len(rows) - 1; i >= 0 && i >= len(rows)-60; i-- {
		var b strings.Builder
		for _, c := range rows[i].Cells {
			b.WriteRune(c.Rune)
		}
		if strings.Contains(b.String(), s) {
			return true
		}
	}
	return false
}

// measure runs the two phases: console closed (the baseline), then open.
func measure(ctx context.Context, cl *client.Client, ui *app.UI, taskID string, dur time.Duration, stopFile string, frames, endSeen *atomic.Int64) ([]phase, error) {
	var sessionID string
	if err := testwait.Poll(60*time.Second, "the flood session to start", func() bool {
		ss, _ := cl.Sessions(ctx)
		for _, s := range ss {
			if s.TaskID == taskID && s.State != supervisor.SessEnded {
				sessionID = s.ID
			}
		}
		return sessionID != ""
	}); err != nil {
		return nil, err
	}
	time.Sleep(2 * time.Second) // let the dashboard settle
	progress("console closed for %s (baseline)", dur)
	writeHeap(".start")
	closed := sample("console closed", ui, dur, frames)
	progress("console open for %s", dur)
	fyne.DoAndWait(func() { ui.OpenConsole(sessionID) })
	if profileTo != "" {
		if f, err := os.Create(profileTo); err == nil {
			pprof.StartCPUProfile(f)
		}
	}
	open := sample("console open", ui, dur, frames)
	pprof.StopCPUProfile()
	writeHeap("")
	// Output stops: how long until the console shows the last of it.
	stopAt := time.Now()
	if err := os.WriteFile(stopFile, nil, 0o600); err != nil {
		return nil, err
	}
	for endSeen.Load() == 0 && time.Since(stopAt) < 30*time.Second {
		time.Sleep(5 * time.Millisecond)
	}
	if e := endSeen.Load(); e != 0 {
		open.lastScreen = time.Unix(0, e).Sub(stopAt)
	} else {
		open.lastScreen = -1
	}
	return []phase{closed, open}, nil
}

// sample clicks "Open Dashboard" every 50 ms (the tray menu's click runs
// the same function on Fyne's goroutine) and times each from the click to
// its effect done; RSS is read every 250 ms.
func sample(name string, ui *app.UI, dur time.Duration, frames *atomic.Int64) phase {
	p := phase{name: name, rssStart: rss(), goStart: goMem()}
	p.rssPeak, p.goPeak = p.rssStart, p.goStart
	p.goAtStart = readGoBreakdown()
	p.goAtPeak = p.goAtStart
	peek := func() {
		p.rssPeak = max(p.rssPeak, rss())
		if g := goMem(); g > p.goPeak {
			p.goPeak, p.goAtPeak = g, readGoBreakdown()
		}
	}
	f0 := frames.Load()
	gc0, all0 := cpuSeconds()
	start := time.Now()
	lastRSS := start
	for time.Since(start) < dur {
		t0 := time.Now()
		done := make(chan struct{})
		fyne.Do(func() { ui.ShowDashboard(); close(done) })
		select {
		case <-done:
			p.clicks = append(p.clicks, time.Since(t0))
		case <-time.After(dur - time.Since(start) + time.Second):
			p.clicks = append(p.clicks, time.Since(t0)) // never answered within the phase
		}
		if time.Since(lastRSS) >= 250*time.Millisecond {
			lastRSS = time.Now()
			peek()
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.elapsed = time.Since(start)
	p.frames = frames.Load() - f0
	peek()
	if gc, all := cpuSeconds(); all > all0 {
		p.gcCPU = (gc - gc0) / (all - all0)
	}
	progress("%s: GC %.0f%% of the CPU time; Go memory at the start: %s; at its peak: %s", name, 100*p.gcCPU, p.goAtStart, p.goAtPeak)
	return p
}

// rss is this process's resident set in bytes.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// writeHeap writes a heap profile to -memprofile's path with suffix.
func writeHeap(suffix string) {
	if memProfileTo == "" {
		return
	}
	if f, err := os.Create(memProfileTo + suffix); err == nil {
		runtime.GC() // the live heap, as of the last collection
		pprof.WriteHeapProfile(f)
		f.Close()
	}
}

// goMem is the memory the Go runtime holds from the OS (heap, its
// headroom up to the GC's goal, stacks, metadata), not counting what it
// has returned: RSS beyond it is native (GL, X, fonts in C).
func goMem() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()) - int64(s[1].Value.Uint64())
}

// goBreakdown is the Go runtime's memory by class: where RSS growth
// that is Go's goes (live objects, the GC's room up to its goal, free
// pages not yet returned to the OS, stacks).
type goBreakdown struct {
	live, goal, objects, free, unused, stacks, other int64
}

func readGoBreakdown() goBreakdown {
	names := []string{"/gc/heap/live:bytes", "/gc/heap/goal:bytes", "/memory/classes/heap/objects:bytes",
		"/memory/classes/heap/free:bytes", "/memory/classes/heap/unused:bytes", "/memory/classes/heap/stacks:bytes",
		"/memory/classes/os-stacks:bytes", "/memory/classes/total:bytes", "/memory/classes/heap/released:bytes"}
	s := make([]metrics.Sample, len(names))
	for i, n := range names {
		s[i].Name = n
	}
	metrics.Read(s)
	v := func(i int) int64 { return int64(s[i].Value.Uint64()) }
	b := goBreakdown{live: v(0), goal: v(1), objects: v(2), free: v(3), unused: v(4), stacks: v(5) + v(6)}
	b.other = v(7) - v(8) - b.objects - b.free - b.unused - b.stacks
	return b
}

func (b goBreakdown) String() string {
	return fmt.Sprintf("live heap %s (GC goal %s), objects %s, free not released %s, unused in spans %s, stacks %s, other %s",
		mb(b.live), mb(b.goal), mb(b.objects), mb(b.free), mb(b.unused), mb(b.stacks), mb(b.other))
}

// cpuSeconds is the Go runtime's estimate of the CPU time spent in the
// GC and in all, so far.
func cpuSeconds() (gc, all float64) {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64(), s[1].Value.Float64()
}

func p99(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*99/100)]
}

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }

func print(ps []phase, dur time.Duration) {
	closed, open := ps[0], ps[1]
	met := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "NO"
	}
	fmt.Printf("\nTray under 1 MB/s of ANSI output, %s per phase (baseline: the console closed)\n", dur)
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "figure", "console open", "closed", "target", "met")
	fps := float64(open.frames) / open.elapsed.Seconds()
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "console frames/s", fmt.Sprintf("%.1f", fps), fmt.Sprintf("%.1f", float64(closed.frames)/closed.elapsed.Seconds()), "—", "")
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "p99 click latency", p99(open.clicks).Round(time.Millisecond), p99(closed.clicks).Round(time.Millisecond), "< 150ms", met(p99(open.clicks) < 150*time.Millisecond))
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "clicks answered", strconv.Itoa(len(open.clicks)), strconv.Itoa(len(closed.clicks)), "—", "")
	growth := open.rssPeak - closed.rssStart
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "RSS growth (peak − start)", mb(growth), mb(closed.rssPeak-closed.rssStart), "< 50 MB", met(growth < 50<<20))
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "  of which Go runtime (heap+GC room)", mb(open.goPeak-closed.goStart), mb(closed.goPeak-closed.goStart), "—", "")
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "  GC's share of the CPU time", fmt.Sprintf("%.0f%%", 100*open.gcCPU), fmt.Sprintf("%.0f%%", 100*closed.gcCPU), "—", "")
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "RSS peak", mb(open.rssPeak), mb(closed.rssPeak), "—", "")
	ls := "never"
	if open.lastScreen >= 0 {
		ls = open.lastScreen.Round(time.Millisecond).String()
	}
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "latest screen after output stops", ls, "—", "< 100ms", met(open.lastScreen >= 0 && open.lastScreen < 100*time.Millisecond))
}

func t0ctx() context.Context { return context.Background() }
