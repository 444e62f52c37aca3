package gitwt

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// CheckFolder refuses a folder the station must not run an agent in: one
// that git refuses for its ownership ("detected dubious ownership"), or,
// not being git, one owned by another user. Another user can write there,
// so what they plant (a .claude/settings.json, a Makefile, a git hook)
// would run as this user. `project add` (the CLI, the API and the
// dashboard) asks it before a project is written; Prepare asks it again
// for a project written by hand.
//
// Git decides for a repository: once a person trusts it on purpose (git
// config --global --add safe.directory), git takes it and so does this.
func (Advisor) CheckFolder(ctx context.Context, dir string) error {
	_, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("check %s with git: %w", dir, ctx.Err())
	}
	return refusedFolder(err, dir)
}

// refusedFolder is the sentence for dir when git failed there with err:
// git's ownership refusal, or (git or not) a folder of another user; nil
// when neither.
func refusedFolder(err error, dir string) error {
	var ge *gitError
	if errors.As(err, &ge) && strings.Contains(ge.stderr, "dubious ownership") {
		return fmt.Errorf("%s is owned by another user; git refuses it (detected dubious ownership, safe.directory). Clone it into a folder you own, or add it with git config --global --add safe.directory %s if you trust it", dir, safeDirectory(ge.stderr, dir))
	}
	if uid, other := ownedByOther(dir); other {
		return fmt.Errorf("%s is owned by another user (uid %d), who could change what an agent runs there. Copy it into a folder you own and add that folder instead", dir, uid)
	}
	return nil
}

// safeDirectory is the path git's refusal names for safe.directory (the
// repository's top, which may be above dir), else dir.
func safeDirectory(stderr, dir string) string {
	const key = "safe.directory "
	for _, l := range strings.Split(stderr, "\n") {
		if i := strings.Index(l, key); i >= 0 {
			if p := strings.TrimSpace(l[i+len(key):]); p != "" {
				return strings.Trim(p, "'")
			}
		}
	}
	return dir
}
