package evidence

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// errNotRepo says a directory is in no git repository.
var errNotRepo = errors.New("not a git repository")

// gitRepo is where a worktree's git state lives. For the main worktree both
// dirs are <top>/.git; for a linked worktree gitDir is
// <common>/worktrees/<name>, which holds its HEAD and reflog, while branches
// and packed-refs stay in the common dir.
type gitRepo struct {
	gitDir, commonDir string
}

// findRepo finds the git dir of dir the way git does, walking up to the
// first .git: a directory (a main worktree) or a file "gitdir: <path>" (a
// linked worktree or a submodule). Reading the files directly keeps a check
// free of a git process.
func findRepo(dir string) (gitRepo, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return gitRepo{}, err
	}
	for {
		dotGit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotGit); err == nil {
			gitDir := dotGit
			if !fi.IsDir() {
				if gitDir, err = readGitFile(dotGit); err != nil {
					return gitRepo{}, err
				}
			}
			if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
				return gitRepo{}, fmt.Errorf("%s: no HEAD: %w", gitDir, errNotRepo)
			}
			return gitRepo{gitDir: gitDir, commonDir: commonDir(gitDir)}, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return gitRepo{}, errNotRepo
		}
		d = parent
	}
}

// readGitFile reads a .git file, "gitdir: <path>", the path relative to the
// file's directory.
func readGitFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: no gitdir line: %w", path, errNotRepo)
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return filepath.Clean(target), nil
}

// commonDir follows a linked worktree's commondir file to the repository
// that holds the branches; a main worktree is its own common dir.
func commonDir(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(data))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c)
}

// head is what a worktree's HEAD points at, at one check.
type head struct {
	sha    string    // "" on an unborn branch, or where files cannot tell (reftable)
	branch string    // "bs/t4" when HEAD is a branch; "" when detached
	moved  time.Time // latest sign of a move: HEAD's or the loose ref's mtime, or the newest reflog entry; zero if unknown
	// work is false when HEAD's reflog says its last move was no commit
	// (a checkout, a reset, the worktree's creation): git moved it, but
	// nobody made anything. True when there is no reflog to tell.
	work bool
}

// head reads HEAD and the ref it names from files: the worktree's git dir
// first (HEAD and per-worktree refs), then the common dir's loose refs,
// then its packed-refs.
func (r gitRepo) head() (head, error) {
	headPath := filepath.Join(r.gitDir, "HEAD")
	var h head
	if fi, err := os.Stat(headPath); err == nil {
		h.moved = fi.ModTime()
	}
	name := "HEAD"
	for range 5 { // symbolic refs may chain; git itself stops at 5
		val, path, err := r.readRef(name)
		if err != nil {
			return head{}, err
		}
		if path != "" && path != headPath {
			if fi, err := os.Stat(path); err == nil && fi.ModTime().After(h.moved) {
				h.moved = fi.ModTime()
			}
		}
		target, symbolic := strings.CutPrefix(val, "ref: ")
		if !symbolic {
			h.sha = val
			break
		}
		name = strings.TrimSpace(target)
		h.branch = strings.TrimPrefix(name, "refs/heads/")
	}
	h.work = true
	if t, msg, ok := newestReflog(filepath.Join(r.gitDir, "logs", "HEAD")); ok {
		h.work = isWork(msg)
		if t.After(h.moved) {
			h.moved = t
		}
	}
	return h, nil
}

// readRef returns a ref's content ("ref: refs/heads/x" or a SHA) and the
// loose file it came from ("" when packed). A ref found nowhere is unborn:
// "", "", nil.
func (r gitRepo) readRef(name string) (val, path string, err error) {
	dirs := []string{r.gitDir}
	if r.commonDir != r.gitDir {
		dirs = append(dirs, r.commonDir)
	}
	for _, d := range dirs {
		p := filepath.Join(d, filepath.FromSlash(name))
		data, err := os.ReadFile(p)
		if err == nil {
			return strings.TrimSpace(string(data)), p, nil
		}
		if !errors.Is(err, os.ErrNotExist) && !isDirErr(p) {
			return "", "", fmt.Errorf("read ref %s: %w", name, err)
		}
	}
	sha, err := packedRef(filepath.Join(r.commonDir, "packed-refs"), name)
	return sha, "", err
}

// isDirErr reports whether p is a directory: a ref name that is also a
// namespace ("refs/heads/bs" beside "refs/heads/bs/t4") is not a ref.
func isDirErr(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// packedRef looks name up in a packed-refs file ("<sha> <name>" lines;
// '#' starts the header, '^' a peeled tag).
func packedRef(path, name string) (string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read packed-refs: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		sha, ref, ok := strings.Cut(line, " ")
		if ok && ref == name {
			return sha, nil
		}
	}
	return "", sc.Err()
}

// reflogTail is how much of a reflog's end newestReflog reads: a reflog
// grows with every commit, and only its last line matters.
const reflogTail = 4096

// newestReflog returns the time of a reflog's last entry,
// "<old> <new> Name <email> <unix-seconds> <tz>\t<message>". The seconds
// are whole, so the entry is reported as the end of its second: a move at
// 12:00:00.7 must not look older than a since of 12:00:00.5.
func newestReflog(path string) (time.Time, string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return time.Time{}, "", false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return time.Time{}, "", false
	}
	off := max(fi.Size()-reflogTail, 0)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return time.Time{}, "", false
	}
	buf = bytes.TrimRight(buf, "\n")
	nl := bytes.LastIndexByte(buf, '\n')
	if nl < 0 && off > 0 {
		return time.Time{}, "", false // one line longer than the tail: give up rather than misparse
	}
	line := buf[nl+1:]
	var msg string
	if tab := bytes.IndexByte(line, '\t'); tab >= 0 {
		line, msg = line[:tab], string(line[tab+1:])
	}
	gt := bytes.LastIndexByte(line, '>')
	if gt < 0 {
		return time.Time{}, "", false
	}
	f2 := bytes.Fields(line[gt+1:])
	if len(f2) < 1 {
		return time.Time{}, "", false
	}
	secs, err := strconv.ParseInt(string(f2[0]), 10, 64)
	if err != nil {
		return time.Time{}, "", false
	}
	return time.Unix(secs+1, 0).Add(-time.Nanosecond), msg, true
}

// isWork reports whether a reflog message is a move that made something
// ("commit: …", "commit (amend): …", "merge …", "cherry-pick: …", "rebase
// (finish): …", "revert: …", "pull: …"), not one that only pointed HEAD
// elsewhere ("checkout: …", "reset: …", "branch: Created from …").
func isWork(msg string) bool {
	for _, p := range []string{"commit", "merge", "cherry-pick", "rebase", "revert", "pull", "am:"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}
