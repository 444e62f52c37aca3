//go:build !windows

package service

import "context"

// RunStation runs the station; launchd and systemd need nothing more than a
// process that stops on SIGTERM.
func RunStation(ctx context.Context, run func(context.Context) error) error { return run(ctx) }
