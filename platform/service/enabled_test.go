package service

import (
	"bytes"
	"strings"
	"testing"
)

const taskXMLDisabled = `<?xml version="1.0" encoding="UTF-16"?>
<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">
  <Triggers>
    <LogonTrigger>
      <Enabled>true</Enabled>
    </LogonTrigger>
  </Triggers>
  <Settings>
    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>
    <Enabled>false</Enabled>
  </Settings>
</Task>`

func utf16Bytes(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
		b.WriteByte(0)
	}
	return b.String()
}

// How each OS's answer reads as enabled or disabled: the trigger's own
// <Enabled> must not count, and an answer nobody can read is "unknown",
// never "enabled".
func TestParseEnabled(t *testing.T) {
	for _, tt := range []struct {
		name          string
		parse         func(string, error) (bool, bool)
		out           string
		err           error
		enabled, know bool
	}{
		{"task disabled", parseTaskEnabled, taskXMLDisabled, nil, false, true},
		{"task enabled", parseTaskEnabled, strings.Replace(taskXMLDisabled, "<Enabled>false", "<Enabled>true", 1), nil, true, true},
		{"task without Settings/Enabled (the schema's default)", parseTaskEnabled, strings.Replace(taskXMLDisabled, "<Enabled>false</Enabled>", "", 1), nil, true, true},
		{"task XML as UTF-16 bytes", parseTaskEnabled, utf16Bytes(taskXMLDisabled), nil, false, true},
		{"task not registered", parseTaskEnabled, "ERROR: The system cannot find the file specified.", errFake, false, false},
		{"schtasks said something else", parseTaskEnabled, "FEHLER: Zugriff verweigert", nil, false, false},
		{"launchd disabled", parseLaunchdDisabled(StationLabel), "disabled services = {\n\t\"dev.buildstation.station\" => disabled\n\t\"com.x\" => enabled\n}", nil, false, true},
		{"launchd disabled (before macOS 11)", parseLaunchdDisabled(StationLabel), "\t\"dev.buildstation.station\" => true\n", nil, false, true},
		{"launchd enabled", parseLaunchdDisabled(StationLabel), "\t\"dev.buildstation.station\" => enabled\n", nil, true, true},
		{"launchd not listed", parseLaunchdDisabled(StationLabel), "\t\"dev.buildstation.tray\" => disabled\n", nil, true, true},
		{"launchd failed", parseLaunchdDisabled(StationLabel), "", errFake, false, false},
		{"systemd enabled", parseSystemdEnabled, "enabled\n", nil, true, true},
		{"systemd disabled (exit 1)", parseSystemdEnabled, "disabled\n", errFake, false, true},
		{"systemd no unit", parseSystemdEnabled, "Failed to get unit file state for buildstation.service: No such file or directory\n", errFake, false, false},
	} {
		enabled, known := tt.parse(tt.out, tt.err)
		if enabled != tt.enabled || known != tt.know {
			t.Errorf("%s: got enabled=%v known=%v, want %v %v", tt.name, enabled, known, tt.enabled, tt.know)
		}
	}
}

func TestStateOf(t *testing.T) {
	for _, tt := range []struct {
		installed, enabled, known, running bool
		want                               State
	}{
		{true, true, true, true, Running},
		{false, false, false, true, Running}, // started by hand or by the tray
		{true, true, true, false, Stopped},
		{true, false, false, false, Stopped}, // unreadable: not claimed disabled
		{true, false, true, false, Disabled},
		{true, false, true, true, Running},
		{false, false, true, false, NotInstalled},
	} {
		if got := StateOf(tt.installed, tt.enabled, tt.known, tt.running); got != tt.want {
			t.Errorf("StateOf(installed=%v enabled=%v known=%v running=%v) = %v, want %v", tt.installed, tt.enabled, tt.known, tt.running, got, tt.want)
		}
		if !strings.HasPrefix(tt.want.Sentence(), "state: "+tt.want.String()) {
			t.Errorf("%v.Sentence() = %q", tt.want, tt.want.Sentence())
		}
	}
}

// Stop disables before it ends (the five-minute repetition cannot slip in
// between) and start enables before it runs, on every OS: the commands,
// in order, as the fake system saw them run.
func TestStopDisablesStartEnables(t *testing.T) {
	for name, tc := range map[string]struct {
		inst        Installer
		cfg         Config
		stop, start []string
	}{
		"windows": {Windows{}, winCfg,
			[]string{"schtasks.exe /change /tn BuildStation-ada /disable", "schtasks.exe /end /tn BuildStation-ada"},
			[]string{"schtasks.exe /change /tn BuildStation-ada /enable", "schtasks.exe /run /tn BuildStation-ada"}},
		"macos": {MacOS{}, macCfg,
			[]string{"launchctl disable gui/501/dev.buildstation.station", "launchctl bootout gui/501/dev.buildstation.station"},
			[]string{"launchctl enable gui/501/dev.buildstation.station", "launchctl bootstrap gui/501 /Users/ada/Library/LaunchAgents/dev.buildstation.station.plist", "launchctl kickstart gui/501/dev.buildstation.station"}},
		"linux": {Linux{}, linuxDefault,
			[]string{"systemctl --user disable --now buildstation.service"},
			[]string{"systemctl --user enable --now buildstation.service"}},
	} {
		for _, step := range []struct {
			plan Plan
			want []string
		}{{tc.inst.Stop(tc.cfg), tc.stop}, {tc.inst.Start(tc.cfg), tc.start}} {
			f := newFake()
			if err := step.plan.Apply(f, false, &bytes.Buffer{}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if strings.Join(f.ran, "\n") != strings.Join(step.want, "\n") {
				t.Errorf("%s ran\n%s\nwant\n%s", name, strings.Join(f.ran, "\n"), strings.Join(step.want, "\n"))
			}
		}
	}
}

// A stopped Windows task is reported disabled, with what to do.
func TestStatusSaysDisabled(t *testing.T) {
	f := newFake()
	f.out = map[string]string{"schtasks.exe /query /tn BuildStation-ada /xml": taskXMLDisabled}
	var out bytes.Buffer
	if err := (Windows{}).Status(winCfg).Apply(f, false, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "logon task BuildStation-ada: disabled (`buildstation service stop` disabled it") {
		t.Errorf("status:\n%s", out.String())
	}
	if e, known := (Windows{}).Enabled(winCfg, f); e || !known {
		t.Errorf("Enabled = %v %v, want false true", e, known)
	}
}

func TestAppBundle(t *testing.T) {
	for exe, want := range map[string]string{
		"/Applications/Build Station.app/Contents/MacOS/buildstation": "/Applications/Build Station.app",
		"/Users/a/x.app/y/Contents/MacOS/buildstation":                "",
		"/usr/local/bin/buildstation":                                 "",
		"/Applications/A.app/Contents/MacOS/sub/buildstation":         "",
	} {
		got, ok := AppBundle(exe)
		if got != want || ok != (want != "") {
			t.Errorf("AppBundle(%q) = %q %v, want %q", exe, got, ok, want)
		}
	}
}
