package daemon

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/buildstation/buildstation/platform/guard"
	"github.com/buildstation/buildstation/platform/instance"
	"github.com/buildstation/buildstation/platform/tmux"
)

// RunGuard is the hidden verb a station starts its fence guard with
// (buildstation --home H fence-guard --station-pid N --grace D): it reads
// the station's feed from in until the station stops it or is gone and
// nothing is left to guard.
func RunGuard(ctx context.Context, home string, args []string, in io.Reader, log *slog.Logger) error {
	fs := flag.NewFlagSet(guard.Verb, flag.ContinueOnError)
	pid := fs.Int("station-pid", 0, "the station's pid")
	grace := fs.Duration("grace", time.Second, "time between the polite signal and the kill")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if home == "" || *pid <= 0 {
		return fmt.Errorf("%s is started by a station, with --home and --station-pid", guard.Verb)
	}
	log = log.With("guard_of", *pid)
	return guard.Run(ctx, in, guard.Options{
		Log: log,
		End: func(s guard.Session) error { return guard.EndSession(s, *grace) },
		EndWindow: func(s guard.Session) error {
			return tmux.New(filepath.Join(home, tmux.SocketName)).KillWindow(s.Window)
		},
		// A station that takes the home over writes its pid into
		// station.lock the moment it holds the home, before it adopts
		// (or ends) what it finds.
		TakenOver: func() bool {
			b, err := os.ReadFile(filepath.Join(home, instance.LockName))
			if err != nil {
				return false
			}
			owner, err := strconv.Atoi(strings.TrimSpace(string(b)))
			return err == nil && owner > 0 && owner != *pid && guard.Ident(owner) != ""
		},
	})
}
