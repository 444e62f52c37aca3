//go:build !windows

package service

import (
	"context"
	"time"
)

// RunStation runs the station; launchd and systemd need nothing more than a
// process that stops on SIGTERM (their units wait StopWait for it).
func RunStation(ctx context.Context, _ time.Duration, run func(context.Context) error) error {
	return run(ctx)
}
