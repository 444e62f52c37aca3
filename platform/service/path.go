package service

import (
	"path"
	"strings"
)

// RecordedPathName is the file in the station's home where `service
// install` records the PATH it captured (one line): a station started
// without it (from a tray the Finder opened, by env -i) adds it to its own.
const RecordedPathName = "login-path"

// HomebrewPrefixes are where Homebrew puts programs (Apple silicon, then
// Intel): added to a macOS service's PATH even when the login shell does
// not list them, since claude, tmux, git and terminal-notifier often live
// there.
var HomebrewPrefixes = []string{"/opt/homebrew/bin", "/opt/homebrew/sbin", "/usr/local/bin"}

// systemDirs end every unix PATH we write, so the station's own needs
// (ps, sh, env) are met whatever the shell said.
var systemDirs = []string{"/usr/bin", "/bin", "/usr/sbin", "/sbin"}

// PathProbe is how CapturePath asks the login shell (a command's
// standard output and error); OS.Run in production.
type PathProbe func(argv []string) (string, error)

// CapturePath is the PATH a launchd- or systemd-started station and its
// agents get: what the user's login shell says ($SHELL -lc 'echo $PATH',
// which reads ~/.zprofile, ~/.bash_profile and the like, where Homebrew
// and installers add themselves), then the installing process's own PATH,
// then, on macOS, the Homebrew prefixes, then the system folders; each
// folder once, in that order. The second result says what happened, one
// line for the install's output.
func CapturePath(goos, shell, current string, run PathProbe) (string, string) {
	var parts []string
	note := ""
	if shell == "" {
		shell = "/bin/sh"
	}
	out, err := run([]string{shell, "-lc", "echo $PATH"})
	login := lastLine(out)
	switch {
	case err != nil:
		note = "PATH: could not ask your login shell " + shell + " (" + strings.TrimSpace(err.Error()) + "); using this shell's PATH"
	case login == "":
		note = "PATH: your login shell " + shell + " printed no PATH; using this shell's PATH"
	default:
		note = "PATH: taken from your login shell " + shell
		parts = append(parts, strings.Split(login, ":")...)
	}
	parts = append(parts, strings.Split(current, ":")...)
	if goos == "darwin" {
		parts = append(parts, HomebrewPrefixes...)
	}
	parts = append(parts, systemDirs...)
	seen := map[string]bool{}
	var keep []string
	for _, p := range parts {
		// Only absolute folders: "" and "." would make the station's
		// lookups depend on its working folder.
		if p == "" || !strings.HasPrefix(p, "/") || seen[p] {
			continue
		}
		seen[p] = true
		keep = append(keep, p)
	}
	return strings.Join(keep, ":"), note
}

// lastLine is the last non-empty line of a login shell's output: a
// profile may print a greeting before our echo.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// recordPath writes the captured PATH into the home (RecordedPathName).
func recordPath(c Config) Step {
	return WriteFile{Path: path.Join(c.Home, RecordedPathName), Mode: 0o600, Data: []byte(c.Path + "\n"), What: "recorded PATH"}
}
