package service

import (
	"fmt"
	"html"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/buildstation/buildstation/internal/deeplink"
)

// LaunchAgent labels (reverse DNS, the app's bundle id as prefix).
const (
	StationLabel = "dev.buildstation.station"
	TrayLabel    = "dev.buildstation.tray"
)

// LSRegister is LaunchServices' own tool, which registers an app bundle's
// URL schemes at once.
const LSRegister = "/System/Library/Frameworks/CoreServices.framework/Frameworks/LaunchServices.framework/Support/lsregister"

// AppBundle is the .app folder exe runs from (…/X.app/Contents/MacOS/x);
// false for a binary outside a bundle.
func AppBundle(exe string) (string, bool) {
	i := strings.LastIndex(exe, ".app/Contents/MacOS/")
	if i < 0 || strings.Contains(exe[i+len(".app/Contents/MacOS/"):], "/") {
		return "", false
	}
	return exe[:i+len(".app")], true
}

// MacOS installs LaunchAgents: the station runs at login and restarts if it
// crashes; the tray starts hidden at login. A LaunchAgent, not a
// LaunchDaemon: it runs as the user, in the user's session, with access to
// the keychain the agents' logins live in.
type MacOS struct{}

func (MacOS) agentPath(c Config, label string) string {
	return path.Join(c.UserHome, "Library", "LaunchAgents", label+".plist")
}

func (MacOS) domain(c Config) string { return "gui/" + strconv.Itoa(c.UID) }

func (m MacOS) Install(c Config) (Plan, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	station := m.agentPath(c, StationLabel)
	p := Plan{
		WriteFile{Path: station, Mode: 0o644, Data: StationPlist(c), What: "station LaunchAgent"},
		recordPath(c),
	}
	if c.Tray {
		p = append(p, WriteFile{Path: m.agentPath(c, TrayLabel), Mode: 0o644, Data: TrayPlist(c), What: "tray login item"})
	} else {
		p = append(p, noTray)
	}
	if app, ok := AppBundle(c.Exe); ok {
		// LaunchServices learns the bundle's buildstation:// scheme when
		// the Finder first sees the app; until then a link opens nothing.
		p = append(p, Run{Argv: []string{LSRegister, "-f", app}, Tolerate: true, Note: "links open the app once the Finder has seen it"})
	}
	return append(p,
		// bootout then bootstrap (re)loads the station with this plist and
		// this binary; bootout fails when it was not loaded, which is fine.
		Run{Argv: []string{"launchctl", "bootout", m.domain(c) + "/" + StationLabel}, Tolerate: true, Note: "fine: it was not loaded"},
		Run{Argv: []string{"launchctl", "bootstrap", m.domain(c), station}, Undo: []string{"launchctl", "bootout", m.domain(c) + "/" + StationLabel}},
	), nil
}

func (m MacOS) Uninstall(c Config) Plan {
	return Plan{
		Run{Argv: []string{"launchctl", "bootout", m.domain(c) + "/" + StationLabel}, Tolerate: true, Note: "fine: it was not loaded"},
		RemoveFile{Path: m.agentPath(c, StationLabel), What: "station LaunchAgent"},
		RemoveFile{Path: m.agentPath(c, TrayLabel), What: "tray login item"},
		RemoveFile{Path: path.Join(c.Home, RecordedPathName), What: "recorded PATH"},
	}
}

func (m MacOS) Installed(c Config, sys System) bool {
	return fileHolds(sys, m.agentPath(c, StationLabel), str(c.Home))
}

// Start enables the LaunchAgent (`service stop` disabled it), loads it
// again (bootout unloaded it; loading one that is loaded fails, which is
// fine) and starts it.
func (m MacOS) Start(c Config) Plan {
	target := m.domain(c) + "/" + StationLabel
	return Plan{
		Run{Argv: []string{"launchctl", "enable", target}},
		Run{Argv: []string{"launchctl", "bootstrap", m.domain(c), m.agentPath(c, StationLabel)}, Tolerate: true, Note: "fine: it was loaded"},
		Run{Argv: []string{"launchctl", "kickstart", target}},
	}
}

// Stop disables the LaunchAgent, so neither KeepAlive nor the next login
// starts it, then unloads it: launchd sends the station SIGTERM, and it
// ends its sessions itself.
func (m MacOS) Stop(c Config) Plan {
	target := m.domain(c) + "/" + StationLabel
	return Plan{
		c.drainNote(),
		Run{Argv: []string{"launchctl", "disable", target}},
		Run{Argv: []string{"launchctl", "bootout", target}, Tolerate: true, Note: "fine: it was not loaded"},
	}
}

func (m MacOS) Enabled(c Config, sys System) (bool, bool) { return m.enabledState(c).Enabled(sys) }

func (m MacOS) enabledState(c Config) EnabledState {
	return EnabledState{Argv: []string{"launchctl", "print-disabled", m.domain(c)}, What: "station LaunchAgent " + StationLabel, Parse: parseLaunchdDisabled(StationLabel)}
}

func (m MacOS) Status(c Config) Plan {
	return Plan{
		FileState{Path: m.agentPath(c, StationLabel), What: "station LaunchAgent"},
		FileState{Path: m.agentPath(c, TrayLabel), What: "tray login item"},
		m.enabledState(c),
		Run{Argv: []string{"launchctl", "list", StationLabel}, Tolerate: true},
	}
}

// StationPlist is the station's LaunchAgent. PATH is the user's login
// shell's plus Homebrew's (CapturePath): launchd's own
// (/usr/bin:/bin:/usr/sbin:/sbin) would not find claude, tmux or git in
// /opt/homebrew/bin or ~/.local/bin.
func StationPlist(c Config) []byte {
	logs := path.Join(c.Home, "logs", "launchd.log")
	return plist(
		kv("Label", str(StationLabel)),
		kv("ProgramArguments", array(c.Exe, "daemon", "--home", c.Home)),
		kv("EnvironmentVariables", dict(kv("PATH", str(c.Path)))),
		kv("RunAtLoad", "<true/>"),
		kv("KeepAlive", dict(kv("SuccessfulExit", "<false/>"))),
		// launchd's SIGKILL comes 20 s after its SIGTERM unless this
		// says otherwise: stop_grace and a margin, so the station drains.
		kv("ExitTimeOut", fmt.Sprintf("<integer>%d</integer>", int(c.stopWait()/time.Second))),
		kv("ProcessType", str("Interactive")),
		kv("StandardOutPath", str(logs)),
		kv("StandardErrorPath", str(logs)),
	)
}

// TrayPlist starts the tray hidden at login, in the GUI session only, with
// the same PATH: a station the tray starts, and terminal-notifier, need it.
func TrayPlist(c Config) []byte {
	return plist(
		kv("Label", str(TrayLabel)),
		kv("ProgramArguments", array(c.trayArgs()...)),
		kv("EnvironmentVariables", dict(kv("PATH", str(c.Path)))),
		kv("RunAtLoad", "<true/>"),
		kv("LimitLoadToSessionType", str("Aqua")),
		kv("ProcessType", str("Interactive")),
	)
}

// InfoPlistAdditions are the Info.plist entries `make package` adds to the
// app bundle (FyneApp.toml cannot say them): CFBundleURLTypes, so macOS
// opens buildstation:// links with the app, and LSUIElement, so the
// menu-bar app has no Dock icon.
func InfoPlistAdditions() string {
	return `	<key>CFBundleURLTypes</key>
	<array>
		<dict>
			<key>CFBundleURLName</key>
			<string>dev.buildstation.app</string>
			<key>CFBundleURLSchemes</key>
			<array>
				<string>` + deeplink.Scheme + `</string>
			</array>
		</dict>
	</array>
	<key>LSUIElement</key>
	<true/>
`
}

// dict nests entries one level deeper.
func dict(entries ...string) string {
	body := strings.TrimRight(strings.Join(entries, ""), "\n")
	return "<dict>\n\t" + strings.ReplaceAll(body, "\n", "\n\t") + "\n\t</dict>"
}

func plist(entries ...string) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
` + strings.Join(entries, "") + `</dict>
</plist>
`)
}

func kv(key, value string) string { return fmt.Sprintf("\t<key>%s</key>\n\t%s\n", key, value) }

func str(s string) string { return "<string>" + html.EscapeString(s) + "</string>" }

func array(items ...string) string {
	var b strings.Builder
	b.WriteString("<array>\n")
	for _, it := range items {
		b.WriteString("\t\t" + str(it) + "\n")
	}
	b.WriteString("\t</array>")
	return b.String()
}
