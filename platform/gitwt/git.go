package gitwt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// gitError is a failed git run: the arguments and what git said on stderr,
// which is what a person needs to see to fix it.
type gitError struct {
	args   []string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := e.stderr
	if msg == "" {
		msg = e.err.Error()
	}
	return "git " + strings.Join(e.args, " ") + ": " + msg
}

func (e *gitError) Unwrap() error { return e.err }

// redirectVars are the variables that point git at some other repository or
// index than the one -C names. A station started from inside a git hook, or
// a shell that set them, would otherwise act on the wrong repo.
var redirectVars = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_NAMESPACE", "GIT_PREFIX",
}

var dropVars = slices.Concat(redirectVars, apitype.SessionIdentity)

// cleanEnv is the station's environment without redirectVars or a
// session's identity (apitype.SessionIdentity), plus extra.
func cleanEnv(extra ...string) []string {
	env := make([]string, 0, len(os.Environ())+len(extra))
outer:
	for _, kv := range os.Environ() {
		for _, name := range dropVars {
			if strings.HasPrefix(kv, name+"=") {
				continue outer
			}
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// git runs `git -C dir args…` and returns its stdout without the final
// newline.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	return gitEnv(ctx, dir, nil, args...)
}

// gitEnv is git with extra environment variables (a temporary index).
func gitEnv(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := childproc.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = cleanEnv(env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", &gitError{args: args, stderr: strings.TrimSpace(stderr.String()), err: err}
	}
	return strings.TrimRight(stdout.String(), "\r\n"), nil
}

// gitOut is gitEnv that returns stdout even when git fails: git push
// reports each ref on stdout, and fails when any one was refused.
func gitOut(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := childproc.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = cleanEnv(env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := strings.TrimRight(stdout.String(), "\r\n")
	if err != nil {
		return out, &gitError{args: args, stderr: strings.TrimSpace(stderr.String()), err: err}
	}
	return out, nil
}

// gitCheck runs a git command that answers yes or no by its exit status
// (rev-parse --verify --quiet, merge-base --is-ancestor, config KEY): 0 is
// yes, 1 is no, anything else is an error.
func gitCheck(ctx context.Context, dir string, args ...string) (bool, error) {
	_, err := git(ctx, dir, args...)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return false, nil
	}
	return false, err
}

// lines splits git output into lines, tolerating CRLF from git on Windows.
func lines(out string) []string {
	if out == "" {
		return nil
	}
	ls := strings.Split(out, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// commit is one commit as a resume reports it.
type commit struct {
	sha, short, subject string
}

func (c commit) String() string { return c.short + " " + c.subject }

// firstParentLog lists the commits in revs (a range such as base..head),
// newest first, following first parents only: a merged-in side branch is
// one step of the task's own history, not many.
func firstParentLog(ctx context.Context, dir, revs string) ([]commit, error) {
	// log, not rev-list, for the format; the flags neutralise the user
	// config that would add lines to its output.
	out, err := git(ctx, dir, "log", "--first-parent", "--no-show-signature", "--no-decorate",
		"--no-color", "--format=%H%x1f%h%x1f%s", revs, "--")
	if err != nil {
		return nil, err
	}
	var cs []commit
	for _, l := range lines(out) {
		f := strings.SplitN(l, "\x1f", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("git log %s: unexpected line %q", revs, l)
		}
		cs = append(cs, commit{sha: f[0], short: f[1], subject: f[2]})
	}
	return cs, nil
}

// describe returns one commit's sha, short sha and subject.
func describe(ctx context.Context, dir, rev string) (commit, error) {
	out, err := git(ctx, dir, "log", "-1", "--no-show-signature", "--no-decorate",
		"--no-color", "--format=%H%x1f%h%x1f%s", rev, "--")
	if err != nil {
		return commit{}, err
	}
	f := strings.SplitN(out, "\x1f", 3)
	if len(f) != 3 {
		return commit{}, fmt.Errorf("git log -1 %s: unexpected output %q", rev, out)
	}
	return commit{sha: f[0], short: f[1], subject: f[2]}, nil
}

func strs(cs []commit) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}
