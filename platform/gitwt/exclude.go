package gitwt

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// exclude lists the worktree root in the repo's info/exclude, once, so the
// task worktrees inside the project never show as untracked there (a
// folder holding a .git file looks like a nested repo to git status).
// info/exclude rather than .gitignore: it is local to this clone and never
// becomes a change the user has to commit.
func (m *Manager) exclude(ctx context.Context, p supervisor.Repo, r repoInfo) error {
	rel, err := filepath.Rel(p.Path, p.WorktreeRoot)
	if err != nil {
		return nil // another volume: outside the repo
	}
	line, ok := excludeLine(r.prefix, filepath.ToSlash(rel))
	if !ok {
		return nil
	}
	common, err := git(ctx, p.Path, "rev-parse", "--git-common-dir")
	if err != nil {
		return err
	}
	if !filepath.IsAbs(common) { // git answers relative to -C
		common = filepath.Join(p.Path, common)
	}
	file := filepath.Join(common, "info", "exclude")

	m.excludeMu.Lock()
	defer m.excludeMu.Unlock()
	data, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == line {
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	var add string
	if len(data) > 0 && data[len(data)-1] != '\n' {
		add = "\n"
	}
	add += "# Build Station's task worktrees\n" + line + "\n"
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.WriteString(add)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// excludeLine is the info/exclude pattern for a worktree root at rel from
// the project folder, which is at prefix in its repo. The default root,
// under .buildstation/, gets the unanchored ".buildstation/": the station's
// own folder, and one line that covers every project of a monorepo. Any
// other root inside the repo is excluded exactly, anchored at the top. A
// root outside the repo needs no line (ok is false).
func excludeLine(prefix, rel string) (line string, ok bool) {
	full := path.Clean(path.Join(prefix, rel))
	if full == "." || full == ".." || strings.HasPrefix(full, "../") || path.IsAbs(full) {
		return "", false
	}
	if first, _, _ := strings.Cut(path.Clean(rel), "/"); first == ".buildstation" {
		return ".buildstation/", true
	}
	return "/" + escapePattern(full) + "/", true
}

// escapePattern quotes the characters gitignore would read as wildcards.
// The pattern it goes into starts and ends with "/", so a leading "#" or
// "!" and trailing spaces need no quoting.
func escapePattern(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\*?[`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
