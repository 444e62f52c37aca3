package service

import (
	"bytes"
	"errors"
	"maps"
	"strings"
	"testing"
)

// A step that fails takes back every change before it, and says so: no
// half an install (a login item starting a station that was never
// registered, say).
func TestInstallRollsBack(t *testing.T) {
	t.Run("windows, the logon task refused", func(t *testing.T) {
		f := newFake()
		plan, err := Windows{}.Install(winCfg)
		if err != nil {
			t.Fatal(err)
		}
		xml := taskFile(winCfg)
		f.fail["schtasks.exe /create /tn BuildStation-ada /xml "+xml+" /f"] = true
		var out bytes.Buffer
		err = plan.ApplyAll(f, &out)
		if err == nil || !strings.Contains(err.Error(), "rolled back") {
			t.Fatalf("err = %v, want a failure that says it rolled back\n%s", err, out.String())
		}
		if len(f.files)+len(f.reg) != 0 {
			t.Errorf("left behind: files %v, registry %v\n%s", f.files, f.reg, out.String())
		}
		if !strings.Contains(out.String(), "logon task definition "+xml+": removed") {
			t.Errorf("the rollback does not say what it removed:\n%s", out.String())
		}
	})
	t.Run("windows, the link handler refused", func(t *testing.T) {
		f := newFake()
		f.failKey = map[string]bool{SchemeKey + `\shell\open\command`: true}
		plan, _ := Windows{}.Install(winCfg)
		var out bytes.Buffer
		if err := plan.ApplyAll(f, &out); err == nil {
			t.Fatal("install succeeded with the link handler refused")
		}
		if len(f.files)+len(f.reg) != 0 {
			t.Errorf("left behind: files %v, registry %v\n%s", f.files, f.reg, out.String())
		}
		if !slicesHas(f.ran, "schtasks.exe /delete /tn BuildStation-ada /f") {
			t.Errorf("the registered task was not deleted: ran %q\n%s", f.ran, out.String())
		}
		if slicesHas(f.ran, "schtasks.exe /run /tn BuildStation-ada") {
			t.Errorf("the station was started by a failed install")
		}
	})
	t.Run("linux reinstall, enable refused: the old files come back", func(t *testing.T) {
		f := newFake()
		old := Linux{}.unitPath(linuxDefault)
		f.files[old] = "[Unit]\nthe old unit\n"
		f.fail["systemctl --user enable buildstation.service"] = true
		plan, _ := Linux{}.Install(linuxDefault)
		var out bytes.Buffer
		if err := plan.ApplyAll(f, &out); err == nil {
			t.Fatal("install succeeded with enable refused")
		}
		want := map[string]string{old: "[Unit]\nthe old unit\n"}
		if !maps.Equal(f.files, want) {
			t.Errorf("files after rollback = %v, want only the old unit\n%s", f.files, out.String())
		}
	})
}

// A build without a tray (CGO_ENABLED=0) installs the station and nothing
// that would start a tray it does not have.
func TestNoTrayBuildWritesNoTrayEntry(t *testing.T) {
	for name, tc := range map[string]struct {
		inst Installer
		cfg  Config
	}{"macos": {MacOS{}, macCfg}, "linux": {Linux{}, linuxDefault}, "windows": {Windows{}, winCfg}} {
		c := tc.cfg
		c.Tray = false
		plan, err := tc.inst.Install(c)
		if err != nil {
			t.Fatal(err)
		}
		f := newFake()
		var out bytes.Buffer
		if err := plan.ApplyAll(f, &out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for p := range f.files {
			if strings.Contains(p, "autostart/") || strings.Contains(p, TrayLabel) || strings.Contains(p, "applications/") {
				t.Errorf("%s: a build without a tray wrote %s", name, p)
			}
		}
		if len(f.reg) != 0 {
			t.Errorf("%s: a build without a tray set %v", name, f.reg)
		}
		if !strings.Contains(out.String(), "this build has no tray") {
			t.Errorf("%s: the install does not say why there is no tray entry:\n%s", name, out.String())
		}
	}
}

// Per-user Windows install: no SCM service, no password asked.
func TestWindowsInstallIsPerUser(t *testing.T) {
	f := newFake()
	plan, _ := Windows{}.Install(winCfg)
	var out bytes.Buffer
	if err := plan.ApplyAll(f, &out); err != nil {
		t.Fatal(err)
	}
	if len(f.services) != 0 {
		t.Errorf("a per-user install created a service: %v", f.services)
	}
	if !slicesHas(f.ran, "schtasks.exe /run /tn BuildStation-ada") {
		t.Errorf("the station was not started through its task: %q", f.ran)
	}
	if got := f.reg[RunKey+"\x00"+Name]; !strings.Contains(got, `buildstationw.exe" --hidden`) {
		t.Errorf("Run key starts %q, want the GUI face with --hidden", got)
	}
}

func TestWindowsRefusesPercentPaths(t *testing.T) {
	for _, c := range []Config{
		func() Config { c := winCfg; c.Home = `C:\Users\ada\%1 home`; return c }(),
		func() Config { c := winCfg; c.Exe = `C:\Tools\100%\buildstation.exe`; return c }(),
		func() Config { c := winCfg; c.GUIExe = `C:\%USERNAME%\buildstationw.exe`; return c }(),
	} {
		_, err := Windows{}.Install(c)
		if err == nil || !strings.Contains(err.Error(), "contains %") {
			t.Errorf("Install(%s, %s) = %v, want a refusal naming the %%", c.Exe, c.Home, err)
		}
	}
}

func TestCapturePath(t *testing.T) {
	probe := func(out string, err error) PathProbe {
		return func(argv []string) (string, error) {
			if strings.Join(argv, " ") != "/bin/zsh -lc echo $PATH" {
				t.Errorf("asked %q", argv)
			}
			return out, err
		}
	}
	tests := []struct {
		name, goos, out string
		err             error
		want, note      string
	}{
		{"a login shell with a greeting", "darwin", "Welcome!\n/Users/ada/.local/bin:/opt/homebrew/bin:/usr/bin:/bin\n", nil,
			"/Users/ada/.local/bin:/opt/homebrew/bin:/usr/bin:/bin:/Users/ada/go/bin:/opt/homebrew/sbin:/usr/local/bin:/usr/sbin:/sbin",
			"taken from your login shell"},
		{"a shell that fails", "darwin", "", errors.New("exit status 1"),
			"/usr/bin:/bin:/Users/ada/go/bin:/opt/homebrew/bin:/opt/homebrew/sbin:/usr/local/bin:/usr/sbin:/sbin",
			"could not ask your login shell"},
		{"linux: no Homebrew prefixes", "linux", "/home/ada/bin:.:/usr/bin\n", nil,
			"/home/ada/bin:/usr/bin:/bin:/Users/ada/go/bin:/usr/sbin:/sbin", "taken from"},
	}
	for _, tt := range tests {
		got, note := CapturePath(tt.goos, "/bin/zsh", "/usr/bin:/bin:/Users/ada/go/bin", probe(tt.out, tt.err))
		if got != tt.want {
			t.Errorf("%s: PATH\n got  %s\n want %s", tt.name, got, tt.want)
		}
		if !strings.Contains(note, tt.note) {
			t.Errorf("%s: note %q, want %q in it", tt.name, note, tt.note)
		}
	}
}

// The captured PATH lands in both plists, byte for byte.
func TestGoldenCapturedPathPlists(t *testing.T) {
	c := macCfg
	c.Path, _ = CapturePath("darwin", "/bin/zsh", "/usr/bin:/bin", func([]string) (string, error) {
		return "/Users/ada/.local/bin:/Users/ada/.nvm/versions/node/v22/bin:/usr/bin:/bin\n", nil
	})
	golden(t, "captured-path-station.plist", StationPlist(c))
	golden(t, "captured-path-tray.plist", TrayPlist(c))
}

func slicesHas(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Installed is true only after an install for this home.
func TestInstalled(t *testing.T) {
	for name, tc := range map[string]struct {
		inst Installer
		cfg  Config
	}{"macos": {MacOS{}, macHostile}, "linux": {Linux{}, linuxHostile}, "windows": {Windows{}, winCfg}} {
		f := newFake()
		if tc.inst.Installed(tc.cfg, f) {
			t.Errorf("%s: installed before install", name)
		}
		plan, _ := tc.inst.Install(tc.cfg)
		if err := plan.ApplyAll(f, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		if !tc.inst.Installed(tc.cfg, f) {
			t.Errorf("%s: not installed after install", name)
		}
		other := tc.cfg
		other.Home += "2"
		if name != "windows" && tc.inst.Installed(other, f) {
			t.Errorf("%s: installed for another home", name)
		}
	}
}
