//go:build linux

package station_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

// Two stations started in the same instant on one home (two login items
// racing, a double click): exactly one owns the home, the other says who
// does and exits 0, so launchd's KeepAlive or systemd's Restart=on-failure
// does not restart it in a loop. Twenty rounds, as the race is a matter of
// timing.
func TestTwoStationsOneHome(t *testing.T) {
	for round := 1; round <= 20; round++ {
		home := rig.WriteConfig(t, "max_sessions = 1\n")
		env := rig.Env(rig.Bin(), home)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		type result struct {
			out  rig.Buffer
			cmd  *exec.Cmd
			exit chan error
		}
		rs := [2]*result{{exit: make(chan error, 1)}, {exit: make(chan error, 1)}}
		var ready sync.WaitGroup
		ready.Add(1)
		for _, r := range rs {
			r.cmd = exec.CommandContext(ctx, rig.Bin(), "daemon", "--home", home)
			r.cmd.Env = env
			r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.out
			go func() {
				ready.Wait()
				if err := r.cmd.Start(); err != nil {
					r.exit <- err
					return
				}
				r.exit <- r.cmd.Wait()
			}()
		}
		ready.Done() // both start now

		// The loser exits 0 on its own; the winner runs until stopped.
		var loser, winner *result
		select {
		case err := <-rs[0].exit:
			loser, winner = rs[0], rs[1]
			checkLoser(t, round, err, &loser.out)
		case err := <-rs[1].exit:
			loser, winner = rs[1], rs[0]
			checkLoser(t, round, err, &loser.out)
		case <-ctx.Done():
			cancel()
			t.Fatalf("round %d: both stations kept running (no lock):\n%s\n---\n%s", round, &rs[0].out, &rs[1].out)
		}
		// The winner owns the home and answers (it may still be starting).
		rig.Eventually(t, 20*time.Second, func() error {
			if out, err := cli(env, "status"); err != nil {
				return fmt.Errorf("%v\n%s", err, out)
			}
			return nil
		}, fmt.Sprintf("round %d: the winner to answer", round), "winner log:", &winner.out)
		select {
		case err := <-winner.exit:
			t.Fatalf("round %d: both stations exited (%v):\n%s", round, err, &winner.out)
		default:
		}
		// Killed, not stopped: the OS drops the lock with the process, so
		// the next round's home (and a restarted station) is free at once.
		cancel() // CommandContext kills it
		<-winner.exit
	}
}

func checkLoser(t *testing.T, round int, err error, out *rig.Buffer) {
	t.Helper()
	if err != nil {
		t.Fatalf("round %d: the second station exited with %v, want 0:\n%s", round, err, out)
	}
	if !strings.Contains(out.String(), "another station owns this home (pid ") {
		t.Fatalf("round %d: the second station did not say who owns the home:\n%s", round, out)
	}
}

func cli(env []string, args ...string) (string, error) {
	c := exec.Command(rig.Bin(), args...)
	c.Env = env
	out, err := c.CombinedOutput()
	return string(out), err
}
