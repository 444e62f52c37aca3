//go:build !darwin && !windows

package osdefaults

import "github.com/buildstation/buildstation/supervisor/config"

// Config is this machine's defaults: none beyond config's own (pty),
// which needs nothing installed.
func Config() config.Platform { return config.Platform{} }
