package service

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// Configs as each OS's installer would gather them. The paths hold a space
// and the home a % and a quote, so quoting is tested too.
var (
	macCfg = Config{
		Exe: "/Applications/Build Station.app/Contents/MacOS/buildstation", Home: "/Users/ada/Library/Application Support/BuildStation",
		UserHome: "/Users/ada", UID: 501, Path: "/opt/homebrew/bin:/Users/ada/.local/bin:/usr/bin:/bin",
	}
	linuxCfg = Config{
		Exe: "/home/ada/bin/build station", Home: `/home/ada/100% "stations"`, HomeFlag: true,
		UserHome: "/home/ada", UID: 1000, Path: "/home/ada/.local/bin:/usr/bin:/bin",
	}
	linuxDefault = Config{
		Exe: "/usr/local/bin/buildstation", Home: "/home/ada/.config/BuildStation",
		UserHome: "/home/ada", UID: 1000, Path: "/usr/bin:/bin",
	}
	winCfg = Config{
		Exe: `C:\Program Files\Build Station\buildstation.exe`, Home: `C:\Users\ada\AppData\Roaming\BuildStation`,
		UserHome: `C:\Users\ada`, User: `DESKTOP-1\ada`,
	}
)

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (go test -update rewrites it)\n--- got\n%s", name, path, got)
	}
}

func TestGoldenFiles(t *testing.T) {
	golden(t, "launchd-station.plist", StationPlist(macCfg))
	golden(t, "launchd-tray.plist", TrayPlist(macCfg))
	golden(t, "info-plist-urltypes.xml", []byte(URLTypesPlist()))
	golden(t, "systemd.service", SystemdUnit(linuxCfg))
	golden(t, "systemd-default.service", SystemdUnit(linuxDefault))
	golden(t, "autostart.desktop", AutostartDesktop(linuxCfg))
	golden(t, "autostart-default.desktop", AutostartDesktop(linuxDefault))
	golden(t, "handler.desktop", HandlerDesktop(linuxDefault))
	var reg strings.Builder
	for _, v := range RegistryValues(winCfg) {
		reg.WriteString(regName(v.Key, v.Name) + " = " + v.Value + "\n")
	}
	s := StationService(winCfg)
	reg.WriteString("service " + s.Name + " as " + s.User + ": " + winCommandLine(append([]string{s.Exe}, s.Args...)) + "\n")
	golden(t, "windows-registry", []byte(reg.String()))
}

// The dry run of every verb on every OS, byte for byte: what a user reads
// before trusting it.
func TestGoldenDryRun(t *testing.T) {
	for name, tc := range map[string]struct {
		inst Installer
		cfg  Config
	}{"macos": {MacOS{}, macCfg}, "linux": {Linux{}, linuxDefault}, "windows": {Windows{}, winCfg}} {
		var out bytes.Buffer
		install, err := tc.inst.Install(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []struct {
			verb string
			plan Plan
		}{{"install", install}, {"uninstall", tc.inst.Uninstall(tc.cfg)}, {"start", tc.inst.Start(tc.cfg)},
			{"stop", tc.inst.Stop(tc.cfg)}, {"status", tc.inst.Status(tc.cfg)}} {
			out.WriteString("## " + p.verb + "\n")
			f := newFake()
			if err := p.plan.Apply(f, true, &out); err != nil {
				t.Fatal(err)
			}
			if len(f.ran)+len(f.files)+len(f.reg)+len(f.services) != 0 {
				t.Errorf("%s %s --dry-run touched the system: %v %v", name, p.verb, f.ran, f.files)
			}
		}
		golden(t, "dryrun-"+name, out.Bytes())
	}
}

// Install twice, uninstall twice: the second of each changes nothing and
// says so.
func TestIdempotent(t *testing.T) {
	for name, tc := range map[string]struct {
		inst Installer
		cfg  Config
	}{"macos": {MacOS{}, macCfg}, "linux": {Linux{}, linuxDefault}, "windows": {Windows{}, winCfg}} {
		f := newFake()
		apply := func(p Plan) string {
			var out bytes.Buffer
			if err := p.Apply(f, false, &out); err != nil {
				t.Fatalf("%s: %v\n%s", name, err, out.String())
			}
			return out.String()
		}
		plan, _ := tc.inst.Install(tc.cfg)
		first := apply(plan)
		nFiles, nReg := len(f.files), len(f.reg)
		if nFiles+nReg == 0 {
			t.Fatalf("%s: install wrote nothing:\n%s", name, first)
		}
		second := apply(plan)
		if len(f.files) != nFiles || len(f.reg) != nReg {
			t.Errorf("%s: a second install changed the system", name)
		}
		for _, word := range []string{"written", "set to", "created"} {
			if strings.Contains(second, word) {
				t.Errorf("%s: second install says %q:\n%s", name, word, second)
			}
		}
		f.fail = map[string]bool{}
		for _, r := range f.ran { // an unloaded service makes these fail; uninstall goes on
			if strings.Contains(r, "bootout") || strings.Contains(r, "disable") || strings.Contains(r, "sc.exe stop") {
				f.fail[r] = true
			}
		}
		apply(tc.inst.Uninstall(tc.cfg))
		if len(f.files)+len(f.reg)+len(f.services) != 0 {
			t.Errorf("%s: uninstall left %v %v %v", name, f.files, f.reg, f.services)
		}
		again := apply(tc.inst.Uninstall(tc.cfg))
		for _, word := range []string{": removed", ": deleted"} {
			if strings.Contains(again, word) {
				t.Errorf("%s: second uninstall says %q:\n%s", name, word, again)
			}
		}
	}
}

func TestInstallRefusesIncompleteConfig(t *testing.T) {
	for _, inst := range []Installer{MacOS{}, Linux{}, Windows{}} {
		if _, err := inst.Install(Config{Exe: "/x"}); err == nil {
			t.Errorf("%T.Install without a home: no error", inst)
		}
	}
}

func TestRunFailure(t *testing.T) {
	f := newFake()
	f.fail["systemctl --user start buildstation.service"] = true
	var out bytes.Buffer
	if err := (Linux{}).Start(linuxDefault).Apply(f, false, &out); err == nil || !strings.Contains(err.Error(), "not loaded") {
		t.Errorf("a failed start: err = %v; want the command's output in it", err)
	}
}

func TestQuoting(t *testing.T) {
	tests := []struct{ got, want string }{
		{systemdQuote(`a "b" 100% $HOME\x`), `"a \"b\" 100%% $$HOME\\x"`},
		{desktopExec("/opt/my app/bs", "--hidden"), `"/opt/my app/bs" --hidden`},
		{desktopExec(`/x/a"b$c`), `"/x/a\\"b\\$c"`},
		{desktopExec("/x/100%"), `"/x/100%%"`},
		{winCommandLine([]string{`C:\a b\x.exe`, "open", `C:\dir with space\`, `q"x`}), `"C:\a b\x.exe" open "C:\dir with space\\" q\"x`},
		{shellJoin([]string{"launchctl", "bootstrap", "gui/501", "/Users/a/My Agents/x.plist"}), `launchctl bootstrap gui/501 '/Users/a/My Agents/x.plist'`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got  %s\nwant %s", tt.got, tt.want)
		}
	}
}
