package gitwt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// setupFile records, in a worktree's own git dir beside its base, how the
// worktree was readied: a worktree whose setup has not passed (or whose
// project's setup changed) is readied again on its next use, so fixing
// the setup and requeueing is enough; git removes it with the worktree.
const setupFile = "buildstation-setup"

// outputMax is how much of a setup's output is kept: the end of an
// install says what failed.
const outputMax = 64 << 10

// ready readies a new worktree or gate checkout whose top is top: the
// files .worktreeinclude names come in from the project's folder, then
// the project's setup runs in the project's folder there. A setup that
// fails or times out is a run with OK false; an error means it could not
// be tried (the copy failed, ctx ended).
func (m *Manager) ready(ctx context.Context, p supervisor.Repo, r repoInfo, top string) (supervisor.SetupRun, error) {
	dir := filepath.Join(top, filepath.FromSlash(r.prefix))
	run := supervisor.SetupRun{Command: p.Setup, OK: true}
	copied, st, err := copyIncluded(ctx, p.Path, dir)
	if err != nil {
		return run, err
	}
	run.Copied, run.How = copied, st.How()
	if p.Setup == "" {
		return run, nil
	}
	timeout := p.SetupTimeout
	if timeout <= 0 {
		timeout = supervisor.DefaultSetupTimeout
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out := &tailBuffer{max: outputMax}
	cmd := gateCommand(sctx, p.Setup)
	cmd.Dir = dir
	cmd.Env = cleanEnv()
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = waitDelay
	began := time.Now()
	err = cmd.Run()
	if cmd.Process != nil {
		killGroup(cmd)
	}
	run.Took, run.At = time.Since(began), began.UTC()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return run, ctx.Err()
	case sctx.Err() != nil:
		run.OK, run.TimedOut = false, true
		fmt.Fprintf(out, "\n[buildstation: setup timed out after %s (setup_timeout)]\n", timeout)
	case err == nil, errors.Is(err, exec.ErrWaitDelay):
	case errors.As(err, &exit):
		run.OK = false
		fmt.Fprintf(out, "\n[buildstation: setup exited with status %d]\n", exit.ExitCode())
	default:
		run.OK = false
		fmt.Fprintf(out, "\n[buildstation: setup could not start: %v]\n", err)
	}
	run.Output = out.String()
	m.log.Info("setup ran", "project", p.Name, "dir", dir, "ok", run.OK, "took", run.Took.Round(time.Millisecond), "copied", len(copied))
	return run, nil
}

// readyTask readies taskID's worktree when it has not been readied with
// the project's current setup: on creation, and again after a setup that
// failed. ran is nil when nothing was due; a setup that failed is a
// *supervisor.SetupError.
func (m *Manager) readyTask(ctx context.Context, p supervisor.Repo, r repoInfo, top, taskID string) (*supervisor.SetupRun, error) {
	prev, ok := readSetup(ctx, top)
	if ok && prev.OK && prev.Command == p.Setup {
		return nil, nil
	}
	run, err := m.ready(ctx, p, r, top)
	if err != nil {
		return nil, err
	}
	if err := writeSetup(ctx, top, run); err != nil {
		return nil, err
	}
	if run.Ran() {
		// Kept beside the repository too: task show says it after the
		// worktree (and its own record) is gone.
		if path, err := m.setupRecord(ctx, p, taskID); err == nil {
			_ = os.MkdirAll(filepath.Dir(path), 0o755)
			if err := writeRecord(path, run); err != nil {
				m.log.Warn("record the task's setup", "task", taskID, "err", err)
			}
		}
	}
	switch {
	case !run.OK:
		return &run, &supervisor.SetupError{Run: run}
	case !run.Ran():
		return nil, nil // nothing to say
	}
	return &run, nil
}

func setupPath(ctx context.Context, top string) (string, error) {
	path, err := git(ctx, top, "rev-parse", "--git-path", setupFile)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(top, path)
	}
	return path, nil
}

// readSetup is how top's worktree was last readied; ok is false when it
// never was.
func readSetup(ctx context.Context, top string) (supervisor.SetupRun, bool) {
	path, err := setupPath(ctx, top)
	if err != nil {
		return supervisor.SetupRun{}, false
	}
	return readRecord(path)
}

func writeSetup(ctx context.Context, top string, run supervisor.SetupRun) error {
	path, err := setupPath(ctx, top)
	if err != nil {
		return err
	}
	return writeRecord(path, run)
}

// setupRecord is where taskID's setup is kept in the repository's common
// git dir (buildstation-setup/<board>/<task>.json), which outlives the
// worktree.
func (m *Manager) setupRecord(ctx context.Context, p supervisor.Repo, taskID string) (string, error) {
	common, err := git(ctx, p.Path, "rev-parse", "--git-common-dir")
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(common) {
		common = filepath.Join(p.Path, common)
	}
	return filepath.Join(common, "buildstation-setup", m.BoardID, taskID+".json"), nil
}

func readRecord(path string) (supervisor.SetupRun, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return supervisor.SetupRun{}, false
	}
	var run supervisor.SetupRun
	if json.Unmarshal(data, &run) != nil {
		return supervisor.SetupRun{}, false
	}
	return run, true
}

func writeRecord(path string, run supervisor.SetupRun) error {
	run.Output = tail(run.Output) // the record keeps the end only
	data, err := json.Marshal(run)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("record the worktree's setup: %w", err)
	}
	return nil
}
