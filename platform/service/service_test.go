package service

import (
	"bytes"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/platform/winargs"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// Configs as each OS's installer would gather them. The paths hold a space
// and the home a % and a quote, so quoting is tested too.
var (
	macCfg = Config{
		Exe: "/Applications/Build Station.app/Contents/MacOS/buildstation-app", Home: "/Users/ada/Library/Application Support/BuildStation",
		UserHome: "/Users/ada", UID: 501, Path: "/opt/homebrew/bin:/Users/ada/.local/bin:/usr/bin:/bin", Tray: true,
		StopGrace: 2 * time.Minute,
	}
	linuxCfg = Config{
		Exe: "/home/ada/bin/build station", Home: `/home/ada/100% "stations"`, HomeFlag: true,
		UserHome: "/home/ada", UID: 1000, Path: "/home/ada/.local/bin:/usr/bin:/bin", Tray: true,
		StopGrace: 2 * time.Minute,
	}
	linuxDefault = Config{
		Exe: "/usr/local/bin/buildstation", Home: "/home/ada/.config/BuildStation",
		UserHome: "/home/ada", UID: 1000, Path: "/usr/bin:/bin", Tray: true,
		StopGrace: 2 * time.Minute,
	}
	winCfg = Config{
		Exe: `C:\Program Files\Build Station\buildstation.exe`, Home: `C:\Users\ada\AppData\Roaming\BuildStation`,
		GUIExe:   `C:\Program Files\Build Station\buildstationw.exe`,
		UserHome: `C:\Users\ada`, User: `DESKTOP-1\ada`, Tray: true,
		StopGrace: 2 * time.Minute,
	}
	winSystem = func() Config { c := winCfg; c.System = true; return c }()

	// Hostile paths: spaces, quotes, $, %, &, ;, backticks and unicode,
	// where each OS allows them in a file name. Windows forbids '"' in
	// names, and '%' is refused there (see checkWindowsPaths).
	macHostile = Config{
		Exe:  `/Users/zoë/Apps/Build "Station" $HOME & co/buildstation`,
		Home: `/Users/zoë/100% $(rm -rf) 'home' & <stations>;`, HomeFlag: true,
		UserHome: "/Users/zoë", UID: 501, Path: `/Users/zoë/bin $x:/opt/homebrew/bin:/usr/bin:/bin`, Tray: true,
	}
	linuxHostile = Config{
		Exe:  "/home/zoë/bin/build \"station\" $HOME & `id`",
		Home: "/home/zoë/100% $(rm -rf) 'home' & <x>;\\back", HomeFlag: true,
		UserHome: "/home/zoë", UID: 1000, Path: "/home/zoë/$bin:/usr/bin:/bin", Tray: true,
	}
	winHostile = Config{
		Exe:      `C:\Users\Zoë Ünal\Apps & Tools\Build $tation (x86)\buildstation.exe`,
		GUIExe:   `C:\Users\Zoë Ünal\Apps & Tools\Build $tation (x86)\buildstationw.exe`,
		Home:     `D:\Stations ^ & <ü> 'quoted' $(x) \`,
		HomeFlag: true, UserHome: `C:\Users\Zoë Ünal`, User: `WORKGROUP\Zoë Ünal`, Tray: true,
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
	golden(t, "info-plist-additions.xml", []byte(InfoPlistAdditions()))
	golden(t, "systemd.service", SystemdUnit(linuxCfg))
	golden(t, "systemd-default.service", SystemdUnit(linuxDefault))
	golden(t, "autostart.desktop", AutostartDesktop(linuxCfg))
	golden(t, "autostart-default.desktop", AutostartDesktop(linuxDefault))
	golden(t, "handler.desktop", HandlerDesktop(linuxDefault))
	golden(t, "windows-registry", windowsValues(winCfg))
	golden(t, "windows-task.xml", []byte(TaskXML(winCfg)))
}

func windowsValues(c Config) []byte {
	var reg strings.Builder
	for _, v := range RegistryValues(c) {
		reg.WriteString(regName(v.Key, v.Name) + " = " + v.Value + "\n")
	}
	s := StationService(c)
	reg.WriteString("service (--system) " + s.Name + " as " + s.User + ": " + winCommandLine(append([]string{s.Exe}, s.Args...)) + "\n")
	reg.WriteString("task " + TaskName(c) + "\n")
	return []byte(reg.String())
}

// Every generated file and command line with hostile paths, byte for
// byte, and each parsed back the way its reader parses it.
func TestGoldenHostilePaths(t *testing.T) {
	golden(t, "hostile-launchd-station.plist", StationPlist(macHostile))
	golden(t, "hostile-launchd-tray.plist", TrayPlist(macHostile))
	golden(t, "hostile-systemd.service", SystemdUnit(linuxHostile))
	golden(t, "hostile-autostart.desktop", AutostartDesktop(linuxHostile))
	golden(t, "hostile-handler.desktop", HandlerDesktop(linuxHostile))
	golden(t, "hostile-windows-registry", windowsValues(winHostile))
	golden(t, "hostile-windows-task.xml", []byte(TaskXML(winHostile)))

	// The plists are XML a parser reads back to the same strings.
	for _, c := range []struct {
		name string
		data []byte
		want []string
	}{
		{"station plist", StationPlist(macHostile), []string{macHostile.Exe, "daemon", "--home", macHostile.Home}},
		{"tray plist", TrayPlist(macHostile), []string{macHostile.Exe, "--home", macHostile.Home, "--hidden"}},
	} {
		got := plistStrings(t, c.data)
		if !containsSeq(got, c.want) {
			t.Errorf("%s: parsed strings %q do not hold %q", c.name, got, c.want)
		}
		if !containsSeq(got, []string{macHostile.Path}) {
			t.Errorf("%s: PATH %q not found in %q", c.name, macHostile.Path, got)
		}
	}
	// The task XML parses back to the program and its arguments; the
	// arguments split by the Windows rules to what the daemon needs.
	var x struct {
		Exec struct {
			Command, Arguments, WorkingDirectory string
		} `xml:"Actions>Exec"`
		UserID string `xml:"Principals>Principal>UserId"`
	}
	raw := TaskXML(winHostile)
	raw = strings.Replace(raw, `encoding="UTF-16"`, `encoding="UTF-8"`, 1) // the string here is UTF-8
	if err := xml.Unmarshal([]byte(raw), &x); err != nil {
		t.Fatal(err)
	}
	if x.Exec.Command != winHostile.GUIExe || x.UserID != winHostile.User || x.Exec.WorkingDirectory != winHostile.Home {
		t.Errorf("task parsed back to %+v", x)
	}
	if got, want := winargs.Split(x.Exec.Arguments), []string{"daemon", "--home", winHostile.Home}; !slices.Equal(got, want) {
		t.Errorf("task arguments split to %q, want %q", got, want)
	}
	// The link handler's command splits the same way, with "%1" last.
	for _, v := range RegistryValues(winHostile) {
		if strings.HasSuffix(v.Key, `shell\open\command`) {
			got := winargs.Split(v.Value)
			want := []string{winHostile.GUIExe, "--home", winHostile.Home, "open", "%1"}
			if !slices.Equal(got, want) {
				t.Errorf("link handler splits to %q, want %q", got, want)
			}
		}
	}
}

// plistStrings are the <string> values of a plist, XML-decoded.
func plistStrings(t *testing.T, data []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	var out []string
	in := false
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case xml.StartElement:
			in = v.Name.Local == "string"
		case xml.CharData:
			if in {
				out = append(out, string(v))
			}
		case xml.EndElement:
			in = false
		}
	}
	return out
}

func containsSeq(hay, needle []string) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		if slices.Equal(hay[i:i+len(needle)], needle) {
			return true
		}
	}
	return false
}

// The dry run of every verb on every OS, byte for byte: what a user reads
// before trusting it.
func TestGoldenDryRun(t *testing.T) {
	for name, tc := range map[string]struct {
		inst Installer
		cfg  Config
	}{"macos": {MacOS{}, macCfg}, "linux": {Linux{}, linuxDefault}, "windows": {Windows{}, winCfg}, "windows-system": {Windows{}, winSystem}} {
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
	}{"macos": {MacOS{}, macCfg}, "linux": {Linux{}, linuxDefault}, "windows": {Windows{}, winCfg}, "windows-system": {Windows{}, winSystem}} {
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
			if strings.Contains(r, "bootout") || strings.Contains(r, "disable") || strings.Contains(r, "sc.exe stop") || strings.Contains(r, "/end") {
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
	f.fail["systemctl --user enable --now buildstation.service"] = true
	var out bytes.Buffer
	if err := (Linux{}).Start(linuxDefault).Apply(f, false, &out); err == nil || !strings.Contains(err.Error(), "not loaded") {
		t.Errorf("a failed start: err = %v; want the command's output in it", err)
	}
}

func TestQuoting(t *testing.T) {
	tests := []struct{ got, want string }{
		{systemdQuote(`a "b" 100% $HOME\x`), `"a \"b\" 100%% $$HOME\\x"`},
		{systemdEnvQuote(`PATH=/a $b:/100%`), `"PATH=/a $b:/100%%"`},
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
