package stationfs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/internal/atomicfile"
	"github.com/buildstation/buildstation/supervisor/config"
)

// FS is one home's files.
type FS struct {
	logs     string // <home>/logs
	sessions string // the parent of the session folders
}

// New prepares home's files: it makes the logs folder (0700) and picks the
// parent of the session folders, sessions, or when "" one of this home's
// own under the user's cache folder:
// <cache>/BuildStation/sessions/<home key>/ (two homes on one machine may
// number their tasks alike). That parent must not lie inside the home,
// where agents must not look.
func New(home, sessions string) (*FS, error) {
	logs := filepath.Join(home, config.DirLogs)
	if err := os.MkdirAll(logs, 0o700); err != nil {
		return nil, fmt.Errorf("create logs folder: %w", err)
	}
	if sessions == "" {
		root, err := sessionsRoot(home)
		if err != nil {
			return nil, err
		}
		sessions = root
	}
	if abs, err := filepath.Abs(home); err == nil && within(sessions, abs) {
		return nil, fmt.Errorf("the session files folder %s lies inside the home %s, where agents must not look; move the home out of it", sessions, abs)
	}
	return &FS{logs: logs, sessions: sessions}, nil
}

// sessionsRoot is the default parent of a home's session folders.
func sessionsRoot(home string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find a folder for session files outside the home: %w; set XDG_CACHE_HOME (or HOME)", err)
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return "", fmt.Errorf("find a folder for session files: %w", err)
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cache, "BuildStation", "sessions", hex.EncodeToString(sum[:8])), nil
}

// within reports whether path is dir or lies under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// AppendTranscript opens logs/<id>.log for appending (0600).
func (f *FS) AppendTranscript(id string) (io.WriteCloser, error) {
	// Not O_APPEND: Trim writes at the start of the file. One writer
	// appends (the session's transcript writer), so its own offset is the
	// end.
	w, err := os.OpenFile(filepath.Join(f.logs, id+".log"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	size, err := w.Seek(0, io.SeekEnd)
	if err != nil {
		w.Close()
		return nil, err
	}
	return &transcriptAppender{File: w, size: size}, nil
}

// transcriptFile is supervisor.TranscriptFile, spelled out.
type transcriptFile = interface {
	io.ReaderAt
	io.Closer
	Stat() (fs.FileInfo, error)
}

// OpenTranscript opens logs/<id>.log for reading.
func (f *FS) OpenTranscript(id string) (transcriptFile, error) {
	r, err := os.Open(filepath.Join(f.logs, id+".log"))
	if err != nil {
		return nil, err // not a nil *os.File in an interface
	}
	return r, nil
}

// TaskTranscripts lists logs/<task>.*.log.
func (f *FS) TaskTranscripts(taskID string) ([]fs.FileInfo, error) {
	matches, err := filepath.Glob(filepath.Join(f.logs, taskID+".*.log"))
	if err != nil {
		return nil, err
	}
	var out []fs.FileInfo
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil {
			out = append(out, fi)
		}
	}
	return out, nil
}

// WritePromptRecord writes logs/<id>.prompt.md (0600).
func (f *FS) WritePromptRecord(id, prompt string) error {
	return os.WriteFile(filepath.Join(f.logs, id+".prompt.md"), []byte(prompt), 0o600)
}

// MakeSessionDir makes a fresh private folder for session id's files.
func (f *FS) MakeSessionDir(id string) (string, error) {
	root := f.sessions
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", err
	}
	// MkdirAll keeps a folder that was already there: make sure it is
	// still the user's own, not a link or a folder others may enter.
	fi, err := os.Lstat(root)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a folder; remove it", root)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(root, 0o700); err != nil {
			return "", err
		}
	}
	dir := filepath.Join(root, id)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	return dir, nil
}

// WriteSessionFile replaces name (0600) in session id's folder whole: a
// running agent may read it (station.url) while it is rewritten.
func (f *FS) WriteSessionFile(id, name string, data []byte) (string, error) {
	path := filepath.Join(f.sessions, id, name)
	if err := atomicfile.Write(path, data, 0o600); err != nil {
		return "", err
	}
	return path, nil
}

// SessionFile is name's path in session id's folder, and whether it exists.
func (f *FS) SessionFile(id, name string) (string, bool) {
	path := filepath.Join(f.sessions, id, name)
	_, err := os.Stat(path)
	return path, err == nil
}

// DropSessionDir removes session id's folder.
func (f *FS) DropSessionDir(id string) error {
	if id == "" {
		return nil
	}
	return os.RemoveAll(filepath.Join(f.sessions, id))
}

// SessionDirs lists the session folders by session id; none is no error.
func (f *FS) SessionDirs() ([]string, error) {
	ents, err := os.ReadDir(f.sessions)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(ents))
	for i, e := range ents {
		ids[i] = e.Name()
	}
	return ids, nil
}

// Tidy removes the home's parent of session folders once no session (an
// adopted tmux one) still has a folder in it.
func (f *FS) Tidy() { _ = os.Remove(f.sessions) }

// ReadConfig reads config.toml.
func (f *FS) ReadConfig(path string) ([]byte, error) { return os.ReadFile(path) }

// WriteConfig replaces config.toml atomically, keeping its mode.
func (f *FS) WriteConfig(path string, data []byte) error { return config.WriteFile(path, data) }

// Missing reports whether the folder path does not exist here.
func (f *FS) Missing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}
