//go:build linux

package fault

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/platform/proctree"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(envFlood); spec != "" {
		os.Exit(flood(spec)) // this test binary is a session's agent
	}
	rig.Main(m, rig.Options{})
}

// env puts the binary under test first on PATH, so agents may run it.
func env(home string) []string { return rig.Env(rig.Bin(), home) }

// cli runs the CLI on home; it never fails the test, so goroutines may call it.
func cli(home string, args ...string) (stdout, stderr string, code int) {
	stdout, stderr, code, err := rig.CLI(rig.Bin(), env(home), args...)
	if err != nil {
		return "", err.Error(), -1
	}
	return stdout, stderr, code
}

func containsAll(b []byte, subs [][]byte) bool {
	for _, s := range subs {
		if !bytes.Contains(b, s) {
			return false
		}
	}
	return true
}

// tagged lists every process whose environment names the session
// (BUILDSTATION_SESSION_ID) of this very station (BUILDSTATION_URL, from
// the home's station.json: unique on the machine while the station runs,
// unlike the session id): the session's whole tree, whatever it did to its
// parentage or process group.
func tagged(home, sessionID string) []proctree.Proc {
	var sf struct {
		URL string `json:"url"`
	}
	if b, err := os.ReadFile(filepath.Join(home, "station.json")); err != nil || json.Unmarshal(b, &sf) != nil || sf.URL == "" {
		return nil
	}
	wants := [][]byte{[]byte("\x00BUILDSTATION_SESSION_ID=" + sessionID + "\x00"), []byte("\x00BUILDSTATION_URL=" + sf.URL + "\x00")}
	ents, _ := os.ReadDir("/proc")
	var out []proctree.Proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err != nil || !containsAll(append(append([]byte{0}, b...), 0), wants) {
			continue
		}
		if p, ok := rig.Process(pid); ok && p.State != 'Z' {
			out = append(out, p)
		}
	}
	return out
}

func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
}

func rssKiB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return n
		}
	}
	return 0
}

// watchdogTimes finds in the station's log when session's task was nudged
// (and the last output before it) and when it was blocked.
func watchdogTimes(log, session, taskID string) (silent, nudged, blocked time.Time) {
	for line := range strings.SplitSeq(log, "\n") {
		e, ok := rig.ParseWatchdog(line)
		switch {
		case !ok:
		case e.Nudged && e.Session == session && nudged.IsZero():
			nudged, silent = e.At, e.Silent
		case !e.Nudged && e.Task == taskID && blocked.IsZero():
			blocked = e.At
		}
	}
	return silent, nudged, blocked
}

// killPid kills a process a test found left behind, if it is still that one.
func killPid(p proctree.Proc) {
	if rig.Running(p) {
		_ = syscall.Kill(p.PID, syscall.SIGKILL)
	}
}

func bg() context.Context { return context.Background() }
