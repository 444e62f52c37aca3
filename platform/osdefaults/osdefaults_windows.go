package osdefaults

import "github.com/buildstation/buildstation/supervisor/config"

// Config is Windows' defaults: pty sessions (ConPTY), and Windows example
// paths in the first-run config.toml.
func Config() config.Platform { return config.Platform{Windows: true} }
