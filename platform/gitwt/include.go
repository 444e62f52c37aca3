package gitwt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/platform/clone"
)

// IncludeFile names, in gitignore syntax, the files git ignores that a
// project's worktrees need anyway (a .env, a node_modules): Claude Code
// Desktop reads the same file, with the same meaning. It lives at the
// project's root (its folder, in a monorepo).
const IncludeFile = ".worktreeinclude"

// copyIncluded brings into to (the project's folder inside a new worktree
// or gate checkout) each file and folder under the project's folder from
// that IncludeFile matches and git ignores: git itself decides both, so its
// gitignore rules are the user's, never a reimplementation. A tracked file
// is never brought (git has it already), nor an untracked one git does
// not ignore (the person's work in progress), and nothing in to is
// overwritten. Folders come whole, cloned copy-on-write where the file
// system allows. It answers what it brought, folders ending in "/".
func copyIncluded(ctx context.Context, from, to string) ([]string, clone.Stats, error) {
	var st clone.Stats
	inc := filepath.Join(from, IncludeFile)
	if _, err := os.Stat(inc); errors.Is(err, fs.ErrNotExist) {
		return nil, st, nil
	} else if err != nil {
		return nil, st, fmt.Errorf("read %s: %w", inc, err)
	}
	// --directory: a wholly ignored folder (node_modules/) is one entry,
	// not its hundred thousand files.
	matched, err := gitZ(ctx, from, nil, "ls-files", "-z", "--others", "--ignored", "--directory", "--exclude-from="+inc)
	if err != nil {
		return nil, st, fmt.Errorf("list what %s names: %w", inc, err)
	}
	ignored, err := checkIgnored(ctx, from, matched)
	if err != nil {
		return nil, st, err
	}
	// A folder the include names but git does not ignore as a whole: only
	// the files in it that git ignores come.
	var partly []string
	for _, m := range matched {
		if strings.HasSuffix(m, "/") && !ignored[m] {
			partly = append(partly, m)
		}
	}
	if len(partly) > 0 {
		files, err := gitZ(ctx, from, nil, append([]string{"ls-files", "-z", "--others", "--ignored", "--exclude-from=" + inc, "--"}, partly...)...)
		if err != nil {
			return nil, st, fmt.Errorf("list what %s names: %w", inc, err)
		}
		more, err := checkIgnored(ctx, from, files)
		if err != nil {
			return nil, st, err
		}
		for _, f := range files {
			if more[f] {
				matched, ignored[f] = append(matched, f), true
			}
		}
	}
	var brought []string
	for _, m := range matched {
		if !ignored[m] {
			continue
		}
		rel := filepath.FromSlash(strings.TrimSuffix(m, "/"))
		s, err := clone.Tree(filepath.Join(from, rel), filepath.Join(to, rel))
		if err != nil {
			return brought, st, fmt.Errorf("bring %s into the worktree: %w", m, err)
		}
		st.Add(s)
		if s.Cloned+s.Copied > 0 {
			brought = append(brought, m)
		}
	}
	return brought, st, nil
}

// checkIgnored asks git which of paths it ignores (its own rules:
// .gitignore, info/exclude, core.excludesFile).
func checkIgnored(ctx context.Context, dir string, paths []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(paths) == 0 {
		return out, nil
	}
	in := strings.Join(paths, "\x00") + "\x00"
	ls, err := gitZ(ctx, dir, strings.NewReader(in), "check-ignore", "-z", "--stdin")
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return out, nil // none is ignored
	}
	if err != nil {
		return nil, fmt.Errorf("ask git what it ignores: %w", err)
	}
	for _, l := range ls {
		out[l] = true
	}
	return out, nil
}

// gitZ runs git with stdin and splits its NUL-separated output.
func gitZ(ctx context.Context, dir string, stdin *strings.Reader, args ...string) ([]string, error) {
	cmd := childproc.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = cleanEnv()
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, &gitError{args: args, stderr: strings.TrimSpace(stderr.String()), err: err}
	}
	var out []string
	for _, s := range strings.Split(stdout.String(), "\x00") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

// hasInclude reports whether the project has a .worktreeinclude.
func hasInclude(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, IncludeFile))
	return err == nil
}
