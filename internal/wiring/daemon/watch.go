package daemon

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long config.toml must stay unchanged before it is read: an
// editor saves in several steps (truncate, write, rename), and reading in
// the middle would see a half-written file.
const settle = 300 * time.Millisecond

// newConfigWatcher starts watching the folder of config.toml at path; nil
// (said in the log) when it cannot, and edits then wait for a restart. It
// watches the folder, not the file: editors that save by writing a new
// file and renaming it over the old one would otherwise end the watch.
func newConfigWatcher(path string, log *slog.Logger) *fsnotify.Watcher {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		log.Warn("cannot watch config.toml; edits take effect when the station restarts", "err", err)
		return nil
	}
	if err := w.Add(filepath.Dir(path)); err != nil {
		w.Close()
		log.Warn("cannot watch config.toml; edits take effect when the station restarts", "err", err)
		return nil
	}
	return w
}

// followConfig reloads the config once edits to it settle, until ctx ends.
func followConfig(ctx context.Context, w *fsnotify.Watcher, path string, log *slog.Logger, reload func(context.Context) error) {
	if w == nil {
		return
	}
	defer w.Close()
	name := filepath.Base(path)
	var fire <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if filepath.Base(ev.Name) == name && ev.Op&(fsnotify.Write|fsnotify.Create|fsnotify.Rename) != 0 {
				fire = time.After(settle)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			log.Warn("watching config.toml", "err", err)
		case <-fire:
			fire = nil
			_ = reload(ctx) // it logs and reports its own verdict
		}
	}
}
