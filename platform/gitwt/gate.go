package gitwt

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// waitDelay bounds how long a finished or killed gate may keep its output
// pipe open through a leftover child, so a stray daemon cannot hang us.
const waitDelay = 5 * time.Second

// HeadGate reports the gate's verdict on the task worktree's HEAD commit,
// from the cache when that commit was judged before; otherwise it runs the
// gate when run is set, and reports none (ran false) when not.
func (m *Manager) HeadGate(ctx context.Context, p supervisor.Repo, taskID string, run bool) (supervisor.GateVerdict, bool, error) {
	if p.Gate == "" {
		return supervisor.GateVerdict{}, false, nil
	}
	if err := checkTaskID(taskID); err != nil {
		return supervisor.GateVerdict{}, false, err
	}
	r, ok, err := m.repo(ctx, p)
	if err != nil || !ok {
		return supervisor.GateVerdict{}, false, err
	}
	dir := m.worktreeDir(p, taskID)
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		return supervisor.GateVerdict{}, false, fmt.Errorf("gate %s: no worktree: %w", taskID, err)
	}
	sha, err := git(ctx, dir, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return supervisor.GateVerdict{}, false, fmt.Errorf("gate %s: %w", taskID, err)
	}
	if !run {
		if m.cache == nil {
			return supervisor.GateVerdict{}, false, nil
		}
		passed, tail, ok, err := m.cache.GateResult(ctx, p.Name, sha)
		if err != nil || !ok {
			return supervisor.GateVerdict{}, false, err
		}
		return supervisor.GateVerdict{SHA: sha, Passed: passed, Tail: tail}, true, nil
	}
	v, err := m.verdict(ctx, p, r, dir, sha)
	if err != nil {
		return supervisor.GateVerdict{}, false, fmt.Errorf("gate %s: %w", taskID, err)
	}
	return v, true, nil
}

// verdict is the gate's verdict on sha: cached, or run now and cached. The
// cache is the board; if it fails, the gate still gives an answer (logged),
// since a verdict is worth more than a cache hit.
func (m *Manager) verdict(ctx context.Context, p supervisor.Repo, r repoInfo, dir, sha string) (supervisor.GateVerdict, error) {
	if m.cache != nil {
		passed, tail, ok, err := m.cache.GateResult(ctx, p.Name, sha)
		if err != nil {
			m.log.Warn("gate cache lookup failed", "project", p.Name, "sha", sha, "err", err)
		} else if ok {
			return supervisor.GateVerdict{SHA: sha, Passed: passed, Tail: tail}, nil
		}
	}
	v, keep, err := m.runGate(ctx, p, r, dir, sha)
	if err != nil {
		return supervisor.GateVerdict{}, err
	}
	if m.cache != nil && keep {
		if err := m.cache.SaveGateResult(ctx, p.Name, sha, v.Passed, v.Tail); err != nil {
			m.log.Warn("gate cache save failed", "project", p.Name, "sha", sha, "err", err)
		}
	}
	return v, nil
}

// runGate runs p.Gate on sha in a temporary detached checkout, never in
// the live worktree: the verdict must be the commit's, not that of
// uncommitted files an agent left behind, and a gate that writes (builds,
// formats) must not touch the agent's work. dir is any worktree of the
// repo. The checkout is readied as a task's worktree is (.worktreeinclude,
// the project's setup); a setup that fails is a failed gate with the
// setup's output, not kept in the cache (keep false). An error means no verdict (git failed, the shell could not start,
// ctx ended); a gate that fails or times out is a verdict.
func (m *Manager) runGate(ctx context.Context, p supervisor.Repo, r repoInfo, dir, sha string) (_ supervisor.GateVerdict, keep bool, _ error) {
	tmp, err := os.MkdirTemp("", "buildstation-gate-")
	if err != nil {
		return supervisor.GateVerdict{}, false, err
	}
	defer m.dropCheckout(dir, tmp)
	if _, err := git(ctx, dir, "worktree", "add", "--detach", tmp, sha); err != nil {
		return supervisor.GateVerdict{}, false, fmt.Errorf("check out %s for the gate: %w", sha, err)
	}

	out := &tailBuffer{max: 64 << 10}
	if p.Setup != "" || hasInclude(p.Path) {
		run, err := m.ready(ctx, p, r, tmp)
		if err != nil {
			return supervisor.GateVerdict{}, false, fmt.Errorf("ready the gate's checkout of %s: %w", sha, err)
		}
		out.Write([]byte(run.Log()))
		if !run.OK {
			// A failed gate, but not the commit's verdict to keep: the
			// next check sets up afresh (a network that was down).
			out.Write([]byte("\n" + (&supervisor.SetupError{Run: run}).Error() + "\n"))
			m.log.Info("gate's setup failed", "project", p.Name, "sha", sha, "timed_out", run.TimedOut)
			return supervisor.GateVerdict{SHA: sha, Passed: false, Tail: tail(out.String())}, false, nil
		}
		fmt.Fprintf(out, "── buildstation: gate `%s` ──\n", p.Gate)
	}

	// Before the gate runs, so a file it makes is not counted as brought.
	lacks := lackedEnvFiles(ctx, p.Path, filepath.Join(tmp, filepath.FromSlash(r.prefix)))

	timeout := m.GateTimeout
	if timeout <= 0 {
		timeout = DefaultGateTimeout
	}
	gctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := gateCommand(gctx, p.Gate)
	cmd.Dir = filepath.Join(tmp, filepath.FromSlash(r.prefix))
	cmd.Env = cleanEnv()
	cmd.Stdout, cmd.Stderr = out, out // one writer: exec shares one pipe
	cmd.WaitDelay = waitDelay
	began := time.Now()
	err = cmd.Run()
	if cmd.Process != nil {
		// The checkout is about to go: nothing the gate started may live on.
		killGroup(cmd)
	}

	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return supervisor.GateVerdict{}, false, ctx.Err()
	case gctx.Err() != nil:
		// Cached like any failure: a gate that needs more than the timeout
		// fails on this commit; rerunning it would only burn the time again.
		fmt.Fprintf(out, "\n[buildstation: gate timed out after %s]\n", timeout)
	case err == nil, errors.Is(err, exec.ErrWaitDelay):
		// ErrWaitDelay comes only after a successful exit: a child kept the
		// output open, but the gate itself passed.
		err = nil
	case errors.As(err, &exit):
	default:
		return supervisor.GateVerdict{}, false, fmt.Errorf("run gate %q: %w", p.Gate, err)
	}
	v := supervisor.GateVerdict{SHA: sha, Passed: err == nil}
	if !v.Passed {
		v.Missing = namedIn(out.String(), lacks)
	}
	if len(v.Missing) > 0 {
		fmt.Fprintf(out, "\n[buildstation: the gate names %[1]s, which git ignores: the project's folder has it, this checkout did not; add %[1]s to %[2]s]\n",
			strings.Join(v.Missing, ", "), IncludeFile)
	}
	v.Tail = tail(out.String())
	m.log.Info("gate ran", "project", p.Name, "sha", sha, "passed", v.Passed, "took", time.Since(began).Round(time.Millisecond), "missing", v.Missing)
	// A failure for a file the checkout lacked is not the commit's verdict.
	return v, len(v.Missing) == 0, nil
}

// dropCheckout removes a gate's temporary checkout and its registration. It
// runs even when the caller's ctx has ended, so no checkout outlives it.
func (m *Manager) dropCheckout(dir, tmp string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := git(ctx, dir, "worktree", "remove", "--force", tmp); err != nil {
		m.log.Debug("remove gate checkout", "dir", tmp, "err", err)
	}
	if err := os.RemoveAll(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		m.log.Warn("remove gate checkout", "dir", tmp, "err", err)
	}
	if _, err := git(ctx, dir, "worktree", "prune"); err != nil {
		m.log.Warn("prune gate checkout", "dir", tmp, "err", err)
	}
}
