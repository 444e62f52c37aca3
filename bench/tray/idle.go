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

	"github.com/buildstation/buildstation/internal/testwait"
	"github.com/buildstation/buildstation/supervisor"
)

// emptyFyne is the baseline: a Fyne app with no window, doing nothing.
func emptyFyne() {
	a := fyneapp.NewWithID("dev.buildstation.bench.empty")
	a.Run()
}

// benchIdle measures the tray (`buildstation --hidden`, the cgo build) on a
// station with 10 live sessions that print a line every 5 s, and an empty
// Fyne app, each alone for dur, as a share of one core.
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
	home := filepath.Join(work, "home")
	project := filepath.Join(work, "project")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	cfg := fmt.Sprintf("max_sessions = 10\n\n[[projects]]\nname = \"idle\"\npath = %q\ncommand = [%q, \"fake-agent\"]\nconcurrency = 10\nidle_window = \"10m\"\nblock_window = \"10m\"\n", project, trayBin)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		return err
	}
	cl, stop, err := startStation(trayBin, home)
	if err != nil {
		return err
	}
	defer stop()
	ctx := t0ctx()
	for i := range 10 {
		if _, err := cl.AddTask(ctx, supervisor.NewTask{Project: "idle", Title: fmt.Sprintf("idle %d", i), Body: "script: heartbeat 5s forever"}); err != nil {
			return fmt.Errorf("add an idle task: %w", err)
		}
	}
	if err := testwait.Poll(60*time.Second, "10 live sessions", func() error {
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
	}); err != nil {
		return err
	}
	env := append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+bus)
	progress("tray idle with 10 live sessions for %s", dur)
	tray := exec.Command(trayBin, "--home", home, "--hidden")
	tray.Env = env
	trayCPU, err := idleCPU(tray, dur)
	if err != nil {
		return fmt.Errorf("tray: %w", err)
	}
	progress("empty Fyne app for %s (baseline)", dur)
	empty := exec.Command(self, "empty-fyne")
	empty.Env = env
	emptyCPU, err := idleCPU(empty, dur)
	if err != nil {
		return fmt.Errorf("empty Fyne app: %w", err)
	}
	met := "NO"
	if trayCPU <= 0.2 {
		met = "yes"
	}
	fmt.Printf("\nTray idle (no window open), %s each\n", dur)
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "figure", "tray", "empty Fyne", "target", "met")
	fmt.Printf("%-34s %-14s %-14s %-10s %s\n", "CPU, % of one core", fmt.Sprintf("%.2f%%", trayCPU), fmt.Sprintf("%.2f%%", emptyCPU), "≤ 0.2%", met)
	return nil
}

// idleCPU starts cmd, lets it settle, and returns the share of one core it
// used over dur.
func idleCPU(cmd *exec.Cmd, dur time.Duration) (float64, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer stopGroup(cmd)
	time.Sleep(5 * time.Second)
	a, err := cpuTicks(cmd.Process.Pid)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	time.Sleep(dur)
	b, err := cpuTicks(cmd.Process.Pid)
	if err != nil {
		return 0, err
	}
	const hz = 100 // USER_HZ on Linux
	return float64(b-a) / hz / time.Since(start).Seconds() * 100, nil
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
