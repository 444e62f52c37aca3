//go:build !unix

package treekill

import "time"

// EndMarked does nothing here: on Windows every agent runs in a Job Object
// closed (and its processes killed) when the station that opened it dies.
func EndMarked(marker string, grace time.Duration) error { return nil }
