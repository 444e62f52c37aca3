package osdefaults

import "github.com/buildstation/buildstation/supervisor/config"

// tmuxIfFound is macOS's defaults with lookPath as its PATH: a session in
// tmux outlives the station (an update, a crash) and can be attached from
// any terminal, so tmux is the default backend where it is installed.
func tmuxIfFound(lookPath func(string) (string, error)) config.Platform {
	if _, err := lookPath("tmux"); err == nil {
		return config.Platform{Backend: "tmux"}
	}
	return config.Platform{}
}
