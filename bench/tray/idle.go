//go:build linux && cgo

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	fyneapp "fyne.io/fyne/v2/app"
	"github.com/godbus/dbus/v5"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/client"
)

// emptyFyne is the baseline: a Fyne app with no window, doing nothing.
func emptyFyne() {
	a := fyneapp.NewWithID("dev.buildstation.bench.empty")
	a.Run()
}

// benchIdle measures the tray (`buildstation --hidden`, the cgo build: the
// tray process, fyne.io/systray alone, no Fyne app loop) on a station with
// 10 live sessions that print a line every 5 s, and an empty Fyne app (whose
// GLFW loop wakes 60 times a second with no window), each alone for dur, as
// a share of one core and as a ratio, in the same run.
func benchIdle(trayBin string, dur time.Duration) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	bus := os.Getenv("DBUS_SESSION_BUS_ADDRESS") // main's private bus
	work, err := os.MkdirTemp("", "bs-bench-tray-idle-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	home, stop, err := idleStation(trayBin, work)
	if err != nil {
		return err
	}
	defer stop()
	env := append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+bus)
	progress("tray idle with 10 live sessions for %s", dur)
	tray := exec.Command(trayBin, "--home", home, "--hidden")
	tray.Env = env
	var windows int // dashboard processes the hidden tray started: none is wanted
	var shown string
	trayCPU, err := idleCPU(tray, dur, func(pid int) {
		windows = len(rig.ChildrenNamed(pid, "dashboard"))
		shown = tooltip(bus, pid)
	})
	if err != nil {
		return fmt.Errorf("tray: %w", err)
	}
	// A tray that idles because it never connected would measure nothing.
	if !strings.Contains(shown, "Working 10") {
		return fmt.Errorf("the tray's tooltip says %q, not the 10 working sessions: it was not following the station", shown)
	}
	progress("the tray showed: %s", shown)
	progress("empty Fyne app for %s (baseline)", dur)
	empty := exec.Command(self, "empty-fyne")
	empty.Env = env
	emptyCPU, err := idleCPU(empty, dur, nil)
	if err != nil {
		return fmt.Errorf("empty Fyne app: %w", err)
	}
	printIdle(dur, trayCPU, emptyCPU, windows)
	return nil
}

// idleStation starts a station in a home under work with 10 live
// sessions, each printing a line every 5 s (the fake agent's heartbeat)
// and never idle long enough to be nudged, and returns the home and how
// to stop the station.
func idleStation(trayBin, work string) (string, func(), error) {
	home := filepath.Join(work, "home")
	project := filepath.Join(work, "project")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return "", nil, err
		}
	}
	cfg := fmt.Sprintf("max_sessions = 10\n\n[[projects]]\nname = \"idle\"\npath = %q\ncommand = [%q, \"fake-agent\"]\nconcurrency = 10\nidle_window = \"10m\"\nblock_window = \"10m\"\n", project, trayBin)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		return "", nil, err
	}
	cl, stop, err := startStation(trayBin, home)
	if err != nil {
		return "", nil, err
	}
	if err := startIdleSessions(cl); err != nil {
		stop()
		return "", nil, err
	}
	return home, stop, nil
}

// startIdleSessions adds the 10 heartbeat tasks and waits until a session
// runs for each: the tray is measured following a busy station.
func startIdleSessions(cl *client.Client) error {
	ctx := t0ctx()
	for i := range 10 {
		if _, err := cl.AddTask(ctx, supervisor.NewTask{Project: "idle", Title: fmt.Sprintf("idle %d", i), Body: "script: heartbeat 5s forever"}); err != nil {
			return fmt.Errorf("add an idle task: %w", err)
		}
	}
	return testwait.Poll(60*time.Second, "10 live sessions", func() error {
		ss, _ := cl.Sessions(ctx)
		live := 0
		for _, s := range ss {
			if s.State != supervisor.SessEnded {
				live++
			}
		}
		if live < 10 {
			return fmt.Errorf("%d started", live)
		}
		return nil
	})
}

// printIdle prints the idle figures against their targets: the tray's
// CPU (≤ 0.2% of one core), its ratio to the empty Fyne app, and the
// window processes it started while hidden (none).
func printIdle(dur time.Duration, trayCPU, emptyCPU float64, windows int) {
	met := "NO"
	if trayCPU <= 0.2 {
		met = "yes"
	}
	fmt.Printf("\nTray idle (no window open), %s each\n", dur)
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "figure", "tray", "empty Fyne", "target", "met")
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "CPU, % of one core", fmt.Sprintf("%.3f%%", trayCPU), fmt.Sprintf("%.3f%%", emptyCPU), "≤ 0.2%", met)
	ratio := "—"
	if emptyCPU > 0 {
		ratio = fmt.Sprintf("%.3f", trayCPU/emptyCPU)
	}
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "tray ÷ empty Fyne app", ratio, "1", "—", "")
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "window processes while idle", fmt.Sprint(windows), "—", "0", map[bool]string{true: "yes", false: "NO"}[windows == 0])
}

// idleCPU starts cmd, lets it settle, and returns the share of one core it
// used over dur; before it ends cmd, it hands its pid to at (when set).
func idleCPU(cmd *exec.Cmd, dur time.Duration, at func(pid int)) (float64, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer stopGroup(cmd)
	time.Sleep(5 * time.Second)
	if _, err := cpuTicks(cmd.Process.Pid); err != nil {
		return 0, err
	}
	a, err := cpuNanos(cmd.Process.Pid)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	time.Sleep(dur)
	b, err := cpuNanos(cmd.Process.Pid)
	if err != nil {
		return 0, err
	}
	elapsed := time.Since(start)
	if at != nil {
		at(cmd.Process.Pid)
	}
	return float64(b-a) / float64(elapsed.Nanoseconds()) * 100, nil
}

// tooltip reads the tray's StatusNotifierItem tooltip (fyne.io/systray
// names its item after the pid) on the bus at addr; "" when it cannot.
func tooltip(addr string, pid int) string {
	conn, err := dbus.Connect(addr)
	if err != nil {
		return ""
	}
	defer conn.Close()
	v, err := conn.Object(fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", pid), "/StatusNotifierItem").GetProperty("org.kde.StatusNotifierItem.ToolTip")
	if err != nil {
		return ""
	}
	var tip struct {
		Name  string
		Icons []struct {
			W, H int32
			Pix  []byte
		}
		Title, Text string
	}
	if v.Store(&tip) != nil {
		return ""
	}
	return tip.Title
}

// cpuNanos is a process's CPU time, every thread's, in nanoseconds
// (schedstat: finer than the clock ticks of stat, which an idle tray may
// not reach in a minute).
func cpuNanos(pid int) (int64, error) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, fmt.Errorf("the process exited: %w", err)
	}
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue // the thread ended
		}
		f := strings.Fields(string(b))
		if len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			sum += n
		}
	}
	return sum, nil
}

// cpuTicks is a process's user+system time in clock ticks.
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("the process exited: %w", err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	u, _ := strconv.ParseInt(f[11], 10, 64)
	k, _ := strconv.ParseInt(f[12], 10, 64)
	return u + k, nil
}

func stopGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

// startBus runs a private D-Bus session bus, where the tray's item lives.
func startBus() (string, func(), error) {
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start dbus-daemon (apt-get install dbus-daemon): %w", err)
	}
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		return "", nil, err
	}
	return strings.TrimSpace(addr), func() { cmd.Process.Kill(); cmd.Wait() }, nil
}
