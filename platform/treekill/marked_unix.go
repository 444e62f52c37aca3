//go:build unix

package treekill

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
)

// EndMarked ends every process whose environment carries marker: what is
// left of a session whose station crashed. There is no leader to signal
// (its pid may since name another process), so only marked processes are
// touched: SIGTERM and SIGHUP, up to grace for them to go, then SIGKILL to
// those still the same processes (same start time) and to any newly
// marked, and a wait for them to be gone. Where environments cannot be
// read (only Linux reads them) nothing is found and nothing is done.
func EndMarked(marker string, grace time.Duration) error {
	if marker == "" {
		return nil
	}
	marked := func() map[int]proctree.Proc {
		all, err := proctree.Current()
		if err != nil {
			return nil
		}
		out := make(map[int]proctree.Proc)
		for _, pid := range proctree.Marked("", marker) {
			if p, ok := all[pid]; ok && !p.Zombie() {
				out[pid] = p
			}
		}
		return out
	}
	before := marked()
	if len(before) == 0 {
		return nil
	}
	var errs []error
	errs = append(errs, signalEach(before, syscall.SIGTERM, syscall.SIGHUP)...)
	if grace > 0 && !gone(before, grace) {
		targets := marked()
		all, _ := proctree.Current()
		for pid, old := range before {
			if now, ok := all[pid]; ok && now.StartTime == old.StartTime && !now.Zombie() {
				targets[pid] = now
			}
		}
		errs = append(errs, signalEach(targets, syscall.SIGKILL)...)
		if !gone(targets, killWait) {
			errs = append(errs, fmt.Errorf("processes still running %v after SIGKILL", killWait))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("end processes marked %s: %w", redactMarker(marker), err)
	}
	return nil
}

// signalEach sends each signal to every process in procs; ESRCH (gone
// already) is not an error.
func signalEach(procs map[int]proctree.Proc, sigs ...syscall.Signal) []error {
	var errs []error
	for _, sig := range sigs {
		for pid := range procs {
			if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
				errs = append(errs, fmt.Errorf("%v to %d: %w", sig, pid, err))
			}
		}
	}
	return errs
}

// gone waits up to d for every process in procs to stop running (a zombie
// has stopped), and reports whether they all did.
func gone(procs map[int]proctree.Proc, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		all, err := proctree.Current()
		if err != nil {
			return false
		}
		left := 0
		for pid, p := range procs {
			if now, ok := all[pid]; ok && now.StartTime == p.StartTime && !now.Zombie() {
				left++
			}
		}
		if left == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(killPoll)
	}
}

// redactMarker keeps a session token out of logs: the key and the first
// characters of the value name it well enough.
func redactMarker(m string) string {
	k, v, ok := strings.Cut(m, "=")
	if !ok {
		return "…"
	}
	if len(v) > 6 {
		v = v[:6]
	}
	return k + "=" + v + "…"
}
