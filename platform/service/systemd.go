package service

import (
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/buildstation/buildstation/internal/deeplink"
)

// Linux file names.
const (
	UnitName    = "buildstation.service"
	DesktopName = "buildstation.desktop"
)

// Linux installs a systemd user unit for the station, an XDG autostart entry
// for the tray, and a .desktop handler for buildstation:// links. A user
// unit runs while the user is logged in (enable lingering with `loginctl
// enable-linger` to keep it running after logout).
type Linux struct{}

func (Linux) unitPath(c Config) string {
	return path.Join(c.UserHome, ".config", "systemd", "user", UnitName)
}

func (Linux) autostartPath(c Config) string {
	return path.Join(c.UserHome, ".config", "autostart", DesktopName)
}

func (Linux) handlerPath(c Config) string {
	return path.Join(c.UserHome, ".local", "share", "applications", DesktopName)
}

func (l Linux) Install(c Config) (Plan, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	p := Plan{
		WriteFile{Path: l.unitPath(c), Mode: 0o644, Data: SystemdUnit(c), What: "station user unit"},
		recordPath(c),
	}
	if c.Tray {
		p = append(p,
			WriteFile{Path: l.autostartPath(c), Mode: 0o644, Data: AutostartDesktop(c), What: "tray autostart entry"},
			WriteFile{Path: l.handlerPath(c), Mode: 0o644, Data: HandlerDesktop(c), What: "buildstation:// handler"},
			Run{Argv: []string{"xdg-mime", "default", DesktopName, "x-scheme-handler/" + deeplink.Scheme}, Tolerate: true, Note: "links may not open the console until xdg-utils is installed"},
		)
	} else {
		p = append(p, noTray)
	}
	return append(p,
		Run{Argv: []string{"systemctl", "--user", "daemon-reload"}},
		// restart, not start: a reinstall picks up a new binary or unit.
		Run{Argv: []string{"systemctl", "--user", "enable", UnitName}, Undo: []string{"systemctl", "--user", "disable", UnitName}},
		Run{Argv: []string{"systemctl", "--user", "restart", UnitName}, Undo: []string{"systemctl", "--user", "stop", UnitName}},
	), nil
}

func (l Linux) Uninstall(c Config) Plan {
	return Plan{
		Run{Argv: []string{"systemctl", "--user", "disable", "--now", UnitName}, Tolerate: true, Note: "fine: it was not installed"},
		RemoveFile{Path: l.unitPath(c), What: "station user unit"},
		RemoveFile{Path: l.autostartPath(c), What: "tray autostart entry"},
		RemoveFile{Path: l.handlerPath(c), What: "buildstation:// handler"},
		RemoveFile{Path: path.Join(c.Home, RecordedPathName), What: "recorded PATH"},
		Run{Argv: []string{"systemctl", "--user", "daemon-reload"}, Tolerate: true},
	}
}

func (l Linux) Installed(c Config, sys System) bool {
	return fileHolds(sys, l.unitPath(c), systemdQuote(c.Home))
}

// Start enables the unit (`service stop` disabled it) and starts it.
func (Linux) Start(Config) Plan {
	return Plan{Run{Argv: []string{"systemctl", "--user", "enable", "--now", UnitName}}}
}

// Stop disables the unit, so the next login does not start it again, and
// stops it.
func (Linux) Stop(c Config) Plan {
	return Plan{c.drainNote(), Run{Argv: []string{"systemctl", "--user", "disable", "--now", UnitName}}}
}

func (Linux) Enabled(_ Config, sys System) (bool, bool) { return unitEnabled.Enabled(sys) }

var unitEnabled = EnabledState{Argv: []string{"systemctl", "--user", "is-enabled", UnitName}, What: "station user unit " + UnitName, Parse: parseSystemdEnabled}

func (l Linux) Status(c Config) Plan {
	return Plan{
		FileState{Path: l.unitPath(c), What: "station user unit"},
		FileState{Path: l.autostartPath(c), What: "tray autostart entry"},
		FileState{Path: l.handlerPath(c), What: "buildstation:// handler"},
		unitEnabled,
		Run{Argv: []string{"systemctl", "--user", "is-active", UnitName}, Tolerate: true},
	}
}

// SystemdUnit is the station's user unit. KillMode=mixed sends SIGTERM to
// the station alone, so it drains and ends its sessions itself (nudge-safe,
// trees killed), and SIGKILL to whatever is left after TimeoutStopSec:
// stop_grace and a margin (StopWait), not systemd's 90 s, which would kill
// a station mid-drain.
func SystemdUnit(c Config) []byte {
	argv := append([]string{c.Exe}, c.daemonArgs()...)
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = systemdQuote(a)
	}
	return []byte(`[Unit]
Description=Build Station: supervises AI coding-agent sessions
Documentation=https://github.com/buildstation/buildstation

[Service]
Type=simple
ExecStart=` + strings.Join(q, " ") + `
Environment=` + systemdEnvQuote("PATH="+c.Path) + `
Restart=on-failure
RestartSec=5s
KillMode=mixed
TimeoutStopSec=` + strconv.Itoa(int(c.stopWait()/time.Second)) + `s

[Install]
WantedBy=default.target
`)
}

// systemdQuote quotes one word of a unit's command line: double quotes with
// C escapes, and % and $ doubled (systemd's specifiers and variables).
func systemdQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "%", "%%", "$", "$$")
	return `"` + r.Replace(s) + `"`
}

// systemdEnvQuote quotes one Environment= assignment: as systemdQuote,
// but '$' stays single, since systemd expands no variables there (a
// doubled one would reach the station as "$$").
func systemdEnvQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "%", "%%")
	return `"` + r.Replace(s) + `"`
}

// AutostartDesktop starts the tray hidden at login (XDG autostart).
func AutostartDesktop(c Config) []byte {
	return []byte(`[Desktop Entry]
Type=Application
Name=Build Station
Comment=Supervise AI coding-agent sessions from the tray
Exec=` + desktopExec(c.trayArgs()...) + `
Terminal=false
X-GNOME-Autostart-enabled=true
`)
}

// HandlerDesktop makes buildstation:// links run `buildstation open URL`.
// It lives in ~/.local/share/applications (autostart entries are not
// searched for handlers); xdg-mime makes it the default.
func HandlerDesktop(c Config) []byte {
	args := []string{c.Exe}
	if c.HomeFlag {
		args = append(args, "--home", c.Home)
	}
	return []byte(`[Desktop Entry]
Type=Application
Name=Build Station
Comment=Open a Build Station console from a link
Exec=` + desktopExec(append(args, "open")...) + ` %u
MimeType=x-scheme-handler/` + deeplink.Scheme + `;
NoDisplay=true
Terminal=false
`)
}

// desktopExec quotes an Exec line by the Desktop Entry spec: an argument
// with a reserved character is double-quoted with " ` $ \ escaped, then the
// whole value gets the string escapes (\ doubled) and % doubled.
func desktopExec(argv ...string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && !strings.ContainsAny(a, " \t\n\"'\\><~|&;$*?#()`=%") {
			q[i] = a
			continue
		}
		a = strings.NewReplacer(`"`, `\"`, "`", "\\`", `$`, `\$`, `\`, `\\`).Replace(a)
		q[i] = `"` + a + `"`
	}
	s := strings.Join(q, " ")
	return strings.NewReplacer(`\`, `\\`, "%", "%%").Replace(s)
}
