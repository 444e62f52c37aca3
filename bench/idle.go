//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// idleAgent fills its session's ring buffer (256 KiB) once, then stays
// silent until killed: an agent thinking, with a screenful behind it.
const idleAgent = `yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c 300000; exec buildstation fake-agent wedge`

// idleSample is one measurement window.
type idleSample struct {
	cpu float64 // % of one core
	rss int64   // KiB at the end
}

// measureStation samples pid's own CPU over d, and its RSS at the end.
func measureStation(pid int, d time.Duration) (idleSample, error) {
	a, err := readCPU(pid)
	if err != nil {
		return idleSample{}, err
	}
	t0 := time.Now()
	time.Sleep(d)
	b, err := readCPU(pid)
	if err != nil {
		return idleSample{}, err
	}
	el := time.Since(t0)
	rss, err := rssKiB(pid)
	return idleSample{cpu: share(b.self-a.self, el), rss: rss}, err
}

func benchIdle(t *table, d time.Duration) error {
	proj, err := os.MkdirTemp(workDir, "idle-proj-")
	if err != nil {
		return err
	}
	home, err := newHome("idle", fmt.Sprintf(`max_sessions = 200
[[projects]]
name = "idle"
path = %q
command = ["sh", "-c", %q]
idle_window = "1h"
block_window = "1h"
concurrency = 200
`, proj, idleAgent))
	if err != nil {
		return err
	}
	st, err := startStation(home)
	if err != nil {
		return err
	}
	defer st.stop()
	ours := map[int]idleSample{}
	counts := []int{0, 20, 100}
	have := 0
	for _, n := range counts {
		if n > have {
			progress("idle: starting %d more idle sessions (each prints 300 KB, then waits)", n-have)
			if _, err := st.addTasks("idle", n-have); err != nil {
				return err
			}
			if err := st.waitSessions(n, 2*time.Second, 2*time.Minute); err != nil {
				return err
			}
			have = n
		}
		time.Sleep(2 * time.Second) // let start-up work (GC, spawn) finish
		progress("idle: measuring the station with %d sessions for %s", n, d)
		s, err := measureStation(st.pid(), d)
		if err != nil {
			return err
		}
		ours[n] = s
	}
	st.stop()

	base, rounds, err := tmuxBaseline(d)
	if err != nil {
		return fmt.Errorf("tmux baseline: %w", err)
	}
	t.add(row{figure: "idle CPU, 0 sessions", ours: pct(ours[0].cpu)})
	t.add(row{figure: "idle CPU, 20 sessions", ours: pct(ours[20].cpu), baseline: pct(base[20].cpu), ratio: ratio(ours[20].cpu, base[20].cpu)})
	t.add(row{figure: "idle CPU, 100 sessions", ours: pct(ours[100].cpu), baseline: pct(base[100].cpu), ratio: ratio(ours[100].cpu, base[100].cpu),
		target: "< 0.5%", met: metString(ours[100].cpu < 0.5),
		note: fmt.Sprintf("station process's utime+stime over %s (resolution 10 ms of CPU, 0.03%% over 30 s; its agents are separate processes); baseline: a poller running `tmux capture-pane` + sha256 on every pane every 500 ms "+
			"over the same agents in tmux windows, its own and its children's CPU plus the tmux server's; with 100 panes over %s it did %s; ratio is ours / baseline", d, d, rounds)})
	t.add(row{figure: "station RSS, 0 / 20 / 100 sessions",
		ours:     fmt.Sprintf("%s / %s / %s", mib(float64(ours[0].rss)), mib(float64(ours[20].rss)), mib(float64(ours[100].rss))),
		baseline: fmt.Sprintf("— / %s / %s", mib(float64(base[20].rss)), mib(float64(base[100].rss))),
		note:     "VmRSS after each idle window; baseline: the tmux server's VmRSS with the same windows"})
	per := float64(ours[100].rss-ours[20].rss) / 80
	basePer := float64(base[100].rss-base[20].rss) / 80
	t.add(row{figure: "memory per session (full ring)", ours: mib(per), baseline: mib(basePer), ratio: ratio(per, basePer),
		target: "< 2 MiB", met: metString(per < 2048),
		note: "station RSS growth from 20 to 100 sessions / 80, every session having printed 300 KB (ring is 256 KiB); baseline: tmux server RSS growth per window, same output"})
	return nil
}

// tmuxBaseline runs the same idle agents as windows of a private tmux
// server and measures a capture-pane poller over them, with 20 then 100
// windows. rounds is how many polling rounds ran with 100 panes.
func tmuxBaseline(d time.Duration) (map[int]idleSample, string, error) {
	sock := fmt.Sprintf("bsbench-%d", os.Getpid())
	home, err := os.MkdirTemp(workDir, "tmux-")
	if err != nil {
		return nil, "", err
	}
	tmux := func(args ...string) *exec.Cmd {
		c := exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
		c.Env, c.Dir = env(home), home
		return c
	}
	defer tmux("kill-server").Run()
	out := map[int]idleSample{}
	have := 0
	var server int
	var rounds string
	for _, n := range []int{20, 100} {
		progress("idle baseline: %d agents in tmux windows", n)
		for i := have; i < n; i++ {
			var c *exec.Cmd
			if i == 0 {
				c = tmux("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", idleAgent)
			} else {
				c = tmux("new-window", "-d", "-t", "bench", idleAgent)
			}
			if b, err := c.CombinedOutput(); err != nil {
				return nil, "", fmt.Errorf("%v: %v %s", c.Args, err, b)
			}
		}
		have = n
		if server == 0 {
			b, err := tmux("display-message", "-p", "#{pid}").Output()
			if err != nil {
				return nil, "", fmt.Errorf("tmux server pid: %w", err)
			}
			server, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		time.Sleep(4 * time.Second) // the agents print their 300 KB and settle
		self, err := os.Executable()
		if err != nil {
			return nil, "", err
		}
		poller := exec.Command(self, "poller", "-L", sock, "-interval", "500ms")
		var pout strings.Builder
		poller.Stdout, poller.Stderr = &pout, os.Stderr
		if err := poller.Start(); err != nil {
			return nil, "", err
		}
		time.Sleep(600 * time.Millisecond) // its first round: the hashes to compare against
		progress("idle baseline: measuring the poller and tmux with %d panes for %s", n, d)
		pa, err1 := readCPU(poller.Process.Pid)
		sa, err2 := readCPU(server)
		t0 := time.Now()
		time.Sleep(d)
		pb, err3 := readCPU(poller.Process.Pid)
		sb, err4 := readCPU(server)
		el := time.Since(t0)
		_ = poller.Process.Signal(syscall.SIGTERM)
		_ = poller.Wait()
		if err := firstErr(err1, err2, err3, err4); err != nil {
			return nil, "", err
		}
		rss, err := rssKiB(server)
		if err != nil {
			return nil, "", err
		}
		ticks := (pb.self + pb.children - pa.self - pa.children) + (sb.self - sa.self)
		out[n] = idleSample{cpu: share(ticks, el), rss: rss}
		rounds = strings.TrimSpace(pout.String())
	}
	return out, rounds, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
