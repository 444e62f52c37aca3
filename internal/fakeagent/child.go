package fakeagent

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// child builds `Self fake-agent SCRIPT`. A child shares this process's
// console when that is a file (a PTY, a test's temp file) so its pid lines
// land there; it never gets stdin, which stays this process's to read. It
// stays in this process group (unix) or job (Windows), as an agent's build
// tools would, so the station's tree kill must find it.
func (r *runner) child(ctx context.Context, script string) (*exec.Cmd, error) {
	if r.env.Self == "" {
		return nil, errors.New("no executable to start (Env.Self is empty)")
	}
	cmd := exec.CommandContext(ctx, r.env.Self, "fake-agent", script)
	cmd.Dir = r.env.Dir
	if f := asFile(r.env.Stdout); f != nil {
		cmd.Stdout = f
	}
	if f := asFile(r.env.Stderr); f != nil {
		cmd.Stderr = f
	}
	return cmd, nil
}

// childSpin is a silent build: CPU burns in a descendant, never in this
// process, and nothing is printed, so only the process-tree layer sees life.
func (r *runner) childSpin(ctx context.Context, d time.Duration) {
	cmd, err := r.child(ctx, "spin "+d.String())
	if err == nil {
		err = cmd.Run()
	}
	if err != nil && ctx.Err() == nil {
		r.errorf("child-spin failed: %v", err)
	}
}

// childSleep leaves a background child behind, for tests that a session's
// end kills the whole tree and not just the agent.
func (r *runner) childSleep(d time.Duration) {
	r.background("child-sleep", "sleep "+d.String())
}

// grandchildSleep leaves two levels behind: a child that starts its own
// sleeping child and then sleeps.
func (r *runner) grandchildSleep(d time.Duration) {
	r.background("grandchild-sleep", fmt.Sprintf("child-sleep %s; sleep %s", d, d))
}

// background starts a child that outlives this step and, on purpose, this
// process: it is not tied to the run's context. Its pid is printed so a
// test can check the station really killed it.
func (r *runner) background(verb, script string) {
	cmd, err := r.child(context.Background(), script)
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		r.errorf("%s failed: %v", verb, err)
		return
	}
	r.printf("%s: pid %d", verb, cmd.Process.Pid)
	// Reap it if it ends while this process lives, so it leaves no zombie.
	go cmd.Wait()
}
