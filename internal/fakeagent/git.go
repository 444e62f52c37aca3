package fakeagent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// gitArgs let commits work on a machine or CI box with no git identity and
// no surprise signing prompt; a real agent would have its user's config.
var gitArgs = []string{
	"-c", "user.name=fake-agent",
	"-c", "user.email=fake@agent",
	"-c", "commit.gpgsign=false",
}

// commit makes a real commit with the git CLI in Dir, as an agent would, so
// the station's commit layer and its green-commit recovery see the real thing.
func (r *runner) commit(ctx context.Context, msg string) error {
	f, err := os.OpenFile(r.path("work.txt"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, msg)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := r.git(ctx, "add", "-A"); err != nil {
		return err
	}
	r.commitN++
	return r.git(ctx, "commit", "-q", "-m", msg)
}

func (r *runner) git(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, "git", append(append([]string(nil), gitArgs...), args...)...)
	cmd.Dir = r.env.Dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return nil
}

// commitEvery is the silent agent whose commits are its only sign of life.
// Failures still go to stderr: a test should see why the commits stopped.
func (r *runner) commitEvery(ctx context.Context, s Step) error {
	return every(ctx, s.Every, s.For, s.Forever, func(int) {
		if err := r.commit(ctx, fmt.Sprintf("fake-agent commit %d", r.commitN+1)); err != nil && ctx.Err() == nil {
			r.errorf("commit-every failed: %v", err)
		}
	})
}

// dirty leaves uncommitted work, for tests that a requeue keeps it on the
// attempt branch. It never overwrites: each call takes the next free name.
func (r *runner) dirty(text string) {
	for {
		r.dirtyN++
		name := fmt.Sprintf("dirty-%d.txt", r.dirtyN)
		f, err := os.OpenFile(r.path(name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err == nil {
			_, err = fmt.Fprintln(f, text)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			r.errorf("dirty failed: %v", err)
			return
		}
		r.printf("dirty: %s", name)
		return
	}
}

// path resolves name in Dir ("" meaning the current directory).
func (r *runner) path(name string) string {
	return filepath.Join(r.env.Dir, name)
}
