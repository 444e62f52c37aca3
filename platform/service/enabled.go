package service

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Stop means stopped, on every OS: `service stop` ends the station and
// disables its autostart, so neither the logon task's five-minute
// repetition (Windows), KeepAlive or the next login (launchd) nor the
// next login (systemd) starts it again; `service start` enables it and
// starts it. `service status` tells the three states apart: running (the
// station answers), stopped (enabled, not running: it starts at the next
// logon, or on `service start`) and disabled (`service stop`).

// EnabledState is the status step that asks the OS whether the station's
// autostart is enabled, and the probe Installer.Enabled runs.
type EnabledState struct {
	Argv  []string
	What  string
	Parse func(out string, err error) (enabled, known bool)
}

// Enabled runs the probe: known is false when the OS's answer could not be
// read (not installed, or a tool that failed).
func (s EnabledState) Enabled(sys System) (enabled, known bool) {
	out, err := sys.Run(s.Argv)
	return s.Parse(out, err)
}

func (s EnabledState) Apply(sys System) (string, error) {
	enabled, known := s.Enabled(sys)
	switch {
	case !known:
		return fmt.Sprintf("%s: cannot tell whether it is enabled (%s answered nothing readable)", s.What, shellJoin(s.Argv)), nil
	case enabled:
		return fmt.Sprintf("%s: enabled (starts at logon)", s.What), nil
	}
	return fmt.Sprintf("%s: disabled (`buildstation service stop` disabled it; `buildstation service start` enables and starts it)", s.What), nil
}

func (s EnabledState) Describe() string {
	return fmt.Sprintf("would run %s (is the %s enabled?)", shellJoin(s.Argv), s.What)
}

// State is the station's state as `service status` says it.
type State int

const (
	NotInstalled State = iota
	Running
	Stopped
	Disabled
)

func (s State) String() string {
	return [...]string{"not installed", "running", "stopped", "disabled"}[s]
}

// StateOf is the one state status reports: a station that answers is
// running whatever its autostart says (one started by hand, or by the
// tray); otherwise a disabled autostart is disabled, and an enabled (or
// unreadable) one stopped.
func StateOf(installed, enabled, known, running bool) State {
	switch {
	case running:
		return Running
	case !installed:
		return NotInstalled
	case known && !enabled:
		return Disabled
	}
	return Stopped
}

// Sentence is the state in one line, with what to do about it.
func (s State) Sentence() string {
	switch s {
	case Running:
		return "state: running"
	case Stopped:
		return "state: stopped (enabled: it starts at your next logon, or now with `buildstation service start`)"
	case Disabled:
		return "state: disabled (`buildstation service stop` stopped it and keeps it stopped; `buildstation service start` enables and starts it)"
	}
	return "state: not installed (`buildstation service install` installs it)"
}

var settingsEnabled = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)<Settings>.*?<Enabled>\s*(true|false)\s*</Enabled>`)
})

// parseTaskEnabled reads `schtasks /query /tn T /xml`: the task's
// <Settings><Enabled> (a trigger has an <Enabled> of its own; /change
// /disable sets the one in Settings). The XML's words are the schema's, not
// the user's language, unlike schtasks' list and table formats. A missing
// element means enabled, the schema's default.
func parseTaskEnabled(out string, err error) (enabled, known bool) {
	if err != nil {
		return false, false
	}
	out = strings.ReplaceAll(out, "\x00", "") // UTF-16 read as bytes
	if !strings.Contains(out, "<Task") {
		return false, false
	}
	m := settingsEnabled().FindStringSubmatch(out)
	if m == nil {
		return true, true
	}
	return m[1] == "true", true
}

// parseLaunchdDisabled reads `launchctl print-disabled gui/UID` for
// label: `"label" => disabled` (or `=> true`, before macOS 11) when
// disabled; a label not listed is enabled.
func parseLaunchdDisabled(label string) func(string, error) (bool, bool) {
	re := regexp.MustCompile(`"` + regexp.QuoteMeta(label) + `"\s*=>\s*(\w+)`)
	return func(out string, err error) (bool, bool) {
		if err != nil {
			return false, false
		}
		m := re.FindStringSubmatch(out)
		if m == nil {
			return true, true
		}
		switch m[1] {
		case "disabled", "true":
			return false, true
		case "enabled", "false":
			return true, true
		}
		return false, false
	}
}

// parseSystemdEnabled reads `systemctl --user is-enabled UNIT`, which
// exits non-zero for every state but enabled ones.
func parseSystemdEnabled(out string, _ error) (bool, bool) {
	switch strings.TrimSpace(out) {
	case "enabled", "enabled-runtime", "static", "alias", "indirect", "generated":
		return true, true
	case "disabled", "masked", "masked-runtime", "linked", "linked-runtime":
		return false, true
	}
	return false, false
}
