package faces

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// App and Front are the executables' names without the .exe suffix; GUI
// is the app's Windows GUI-subsystem face (the same program linked with
// -H windowsgui), which the logon task, the Run key and the
// buildstation:// link handler start.
const (
	App   = "buildstation-app"
	Front = "buildstation"
	GUI   = "buildstationw"
)

// exe adds the platform's suffix.
func exe(name string) string { return exeFor(runtime.GOOS, name) }

func exeFor(goos, name string) string {
	if goos == "windows" {
		return name + ".exe"
	}
	return name
}

// AppBeside is the full program beside the front at self.
func AppBeside(self string) string {
	return filepath.Join(filepath.Dir(self), exe(App))
}

// CLI is the program the station names for the command line (agents'
// hooks and PATH, tmux's output pipe): the front beside self when self is
// the app installed as buildstation-app (or, on Windows, as its GUI face
// buildstationw.exe, which the logon task starts) and the front stands
// beside it, else self (a build of the module alone, as `go install`
// makes, runs every verb).
func CLI(self string) string { return cliFor(runtime.GOOS, self) }

func cliFor(goos, self string) string {
	if self == "" {
		return self
	}
	switch base := filepath.Base(self); {
	case base == exeFor(goos, App):
	case goos == "windows" && strings.EqualFold(base, exeFor(goos, GUI)):
	case goos == "windows" && strings.EqualFold(base, exeFor(goos, App)):
	default:
		return self
	}
	front := filepath.Join(filepath.Dir(self), exeFor(goos, Front))
	if fi, err := os.Stat(front); err == nil && fi.Mode().IsRegular() {
		return front
	}
	return self
}

// ErrNoApp says the front stands alone.
var ErrNoApp = errors.New("no " + App + " beside this program")

// HandOver runs the app beside the front at self with args (the whole
// command line after the program's name). On Unix it replaces this
// process and returns only on error; on Windows it runs the app as a
// child with this console and returns its exit code.
func HandOver(self string, args []string) (int, error) {
	app, err := findApp(self)
	if err != nil {
		return 0, err
	}
	return handOver(app, args)
}

// findApp is the app beside the front at self, or beside the file self
// links to: a front put on PATH as a symbolic link (Homebrew's cask links
// the one in Build Station.app, a person links it into ~/.local/bin) is
// named by the link on macOS, where os.Executable does not resolve it.
func findApp(self string) (string, error) {
	app := AppBeside(self)
	if isFile(app) {
		return app, nil
	}
	if real, err := filepath.EvalSymlinks(self); err == nil && real != self {
		app = AppBeside(real)
		if isFile(app) {
			return app, nil
		}
	}
	return "", fmt.Errorf("%w (%s): the daemon, the tray, the demo, the service installer and the board verbs live there; reinstall Build Station (its packages ship both) or build it: go build -o %s github.com/buildstation/buildstation",
		ErrNoApp, filepath.Dir(app), app)
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// SplitArgs finds the role's verb, skipping a leading --home flag (which
// the CLI also accepts after the verb).
func SplitArgs(args []string) (home, verb string, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--home" || a == "-home":
			if i+1 < len(args) {
				home = args[i+1]
				i++
			}
		case len(a) > 7 && (a[:7] == "--home=" || a[:6] == "-home="):
			home = a[len("--home="):]
			if a[1] != '-' {
				home = a[len("-home="):]
			}
		default:
			return home, a, args[i+1:]
		}
	}
	return home, "", nil
}
