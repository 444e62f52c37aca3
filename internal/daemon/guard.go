package daemon

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/buildstation/buildstation/platform/guard"
	"github.com/buildstation/buildstation/supervisor/apitype"
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
		// A station that takes the home over writes its own pid into
		// station.json before it adopts a session.
		TakenOver: func() bool {
			f, err := apitype.ReadStationFile(home)
			return err == nil && f.PID != *pid
		},
	})
}
