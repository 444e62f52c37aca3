//go:build linux

package fault

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// envFlood makes this test binary a flooding agent: "RATE:DURATION" bytes
// per second for that long, then silence until killed.
const envFlood = "BS_FAULT_FLOOD"

func flood(spec string) int {
	r, d, _ := strings.Cut(spec, ":")
	rate, err1 := strconv.ParseInt(r, 10, 64)
	dur, err2 := time.ParseDuration(d)
	if err1 != nil || err2 != nil {
		fmt.Fprintf(os.Stderr, "flood: bad spec %q\n", spec)
		return 2
	}
	line := bytes.Repeat([]byte("0123456789"), 25)
	line = append(line[:len(line)-2], '\r', '\n') // 250-byte lines
	chunk := bytes.Repeat(line, 256)              // 64 000 bytes
	start := time.Now()
	var sent int64
	for time.Since(start) < dur {
		// Pace to rate: write while ahead of schedule, else sleep a tick.
		due := int64(time.Since(start).Seconds() * float64(rate))
		if sent >= due {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		n, err := os.Stdout.Write(chunk)
		sent += int64(n)
		if err != nil {
			return 1
		}
	}
	fmt.Printf("flood done: %d bytes in %s\r\n", sent, time.Since(start).Round(time.Millisecond))
	select {} // silent until the station ends it
}

// TestFloodKeepsRSSBoundedAndTimersOnTime runs a session that writes
// 50 MB/s for 10 s. The station's memory must stay bounded (the ring is
// fixed, the transcript goes to disk) and a wedged session in another
// project must still be nudged and blocked on schedule.
func TestFloodKeepsRSSBoundedAndTimersOnTime(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	home := rig.WriteConfig(t, fmt.Sprintf(`max_sessions = 4
[[projects]]
name = "flood"
path = %q
command = ["env", "%s=50000000:10s", %q]
idle_window = "30s"
block_window = "30s"

[[projects]]
name = "wedge"
path = %q
command = ["buildstation", "fake-agent", "print ready; wedge"]
idle_window = "2s"
block_window = "2s"
`, t.TempDir(), envFlood, self, t.TempDir()))
	s := rig.StartOn(t, home)
	fl := strings.TrimSpace(s.Must("task", "add", "--project", "flood", "--title", "flood"))
	s.WaitState(fl, "working", 10*time.Second)
	floodStart := time.Now()

	type sample struct {
		at  time.Duration
		kib int64
	}
	var samples []sample
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stopSampling:
				return
			case <-tick.C:
				samples = append(samples, sample{time.Since(floodStart), rssKiB(s.PID())})
			}
		}
	}()
	time.Sleep(time.Second)
	wd := strings.TrimSpace(s.Must("task", "add", "--project", "wedge", "--title", "wedged"))
	s.WaitState(wd, "blocked", 30*time.Second)
	wedgeBlocked := time.Since(floodStart)
	// Sample to the end of the flood.
	time.Sleep(max(0, 11*time.Second-time.Since(floodStart)))
	close(stopSampling)
	<-sampled
	flTask := s.Task(fl)
	if !s.Running() {
		t.Fatalf("the station died during the flood:\n%s", rig.Tail(s.Log.String(), 3000))
	}
	transcript, _ := os.Stat(filepath.Join(home, "logs", fl+".1.log"))
	var got int64
	if transcript != nil {
		got = transcript.Size()
	}
	t.Logf("flood: %d MB through the session's transcript in ~10 s (%.1f MB/s); wedge blocked %.1fs into the flood; flood task now %s",
		got/1e6, float64(got)/1e6/10, wedgeBlocked.Seconds(), flTask.State)
	if wedgeBlocked > 10*time.Second {
		t.Errorf("the wedged session was blocked %s into the flood, after it ended: the test proved nothing", wedgeBlocked)
	}

	// Memory: bounded, and not growing with the bytes that went through.
	var peak int64
	for _, x := range samples {
		peak = max(peak, x.kib)
	}
	third := len(samples) / 3
	avg := func(ss []sample) int64 {
		var sum int64
		for _, x := range ss {
			sum += x.kib
		}
		return sum / int64(max(len(ss), 1))
	}
	early, late := avg(samples[2:third+2]), avg(samples[len(samples)-third:])
	t.Logf("station VmRSS: peak %d MiB, first third %d MiB, last third %d MiB (%d samples)", peak>>10, early>>10, late>>10, len(samples))
	if peak > 150<<10 {
		t.Errorf("station RSS peaked at %d MiB during the flood, want < 150 MiB", peak>>10)
	}
	if late-early > 32<<10 {
		t.Errorf("station RSS grew from %d MiB to %d MiB over the flood: it grows with output", early>>10, late>>10)
	}

	// Timers: the wedged session was nudged and blocked on schedule.
	log := readLog(t, home)
	silent, nudged, blocked := watchdogTimes(log, wd+".1", wd)
	if nudged.IsZero() || blocked.IsZero() || silent.IsZero() {
		t.Fatalf("no nudge or block of %s in the station log:\n%s", wd, rig.Tail(log, 3000))
	}
	nl, bl := nudged.Sub(silent.Add(2*time.Second)), blocked.Sub(nudged.Add(2*time.Second))
	t.Logf("wedged session: nudged %s late, blocked %s late (schedule: last output + 2s, nudge + 2s)", nl, bl)
	if nl > time.Second || nl < -50*time.Millisecond {
		t.Errorf("nudge fired %s off schedule during the flood, want within 1s", nl)
	}
	// The block is due a window after the nudge's own instant, which the
	// nudge's log line can only follow: early is measured against the
	// earliest the nudge could fire (last output + 2s).
	if early := blocked.Sub(silent.Add(4 * time.Second)); bl > time.Second || early < -50*time.Millisecond {
		t.Errorf("block fired %s after the nudge's line, %s after the earliest schedule, during the flood; want within 1s and not early", bl, early)
	}
}

func readLog(t *testing.T, home string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, "logs", "station.log"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
