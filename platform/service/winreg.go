package service

import (
	"strings"

	"github.com/buildstation/buildstation/platform/winargs"
)

// Registry keys under HKEY_CURRENT_USER.
const (
	RunKey    = `Software\Microsoft\Windows\CurrentVersion\Run`
	SchemeKey = `Software\Classes\` + Scheme
)

// Windows installs the station as a service that runs as the installing
// user (agents need that user's credentials, PATH and tools; LocalSystem
// would run them as the machine), the tray from the HKCU Run key, and the
// buildstation:// scheme under HKCU\Software\Classes. The service runs
// `buildstation service run`, which answers the Service Control Manager and
// then is the station (`daemon`).
type Windows struct{}

// RegValue is one registry value a plan sets.
type RegValue struct{ Key, Name, Value string }

// RegistryValues are every HKCU value Install sets, in order.
func RegistryValues(c Config) []RegValue {
	open := append([]string{c.Exe}, "open")
	if c.HomeFlag {
		open = []string{c.Exe, "--home", c.Home, "open"}
	}
	return []RegValue{
		{RunKey, Name, winCommandLine(c.trayArgs())},
		{SchemeKey, "", "URL:Build Station"},
		{SchemeKey, "URL Protocol", ""},
		{SchemeKey + `\DefaultIcon`, "", winCommandLine([]string{c.Exe}) + ",0"},
		{SchemeKey + `\shell\open\command`, "", winCommandLine(open) + ` "%1"`},
	}
}

// StationService is the Windows service Install creates.
func StationService(c Config) WinService {
	return WinService{
		Name: Name, DisplayName: DisplayName, Description: Description,
		Exe: c.Exe, Args: []string{"service", "run", "--home", c.Home}, User: c.User,
	}
}

func (Windows) Install(c Config) (Plan, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	p := Plan{CreateService{Service: StationService(c)}}
	for _, v := range RegistryValues(c) {
		p = append(p, RegSet(v))
	}
	return append(p, Run{Argv: []string{"sc.exe", "start", Name}, Tolerate: true, Note: "start it with `buildstation service start` once the cause is fixed"}), nil
}

func (Windows) Uninstall(Config) Plan {
	return Plan{
		Run{Argv: []string{"sc.exe", "stop", Name}, Tolerate: true, Note: "fine: it was not running"},
		DeleteService{Name: Name},
		RegDeleteValue{Key: RunKey, Name: Name},
		RegDeleteTree{Key: SchemeKey},
	}
}

func (Windows) Start(Config) Plan { return Plan{Run{Argv: []string{"sc.exe", "start", Name}}} }
func (Windows) Stop(Config) Plan  { return Plan{Run{Argv: []string{"sc.exe", "stop", Name}}} }

func (Windows) Status(Config) Plan {
	return Plan{
		Run{Argv: []string{"sc.exe", "query", Name}, Tolerate: true},
		RegState{Key: RunKey, Name: Name, What: "tray login item"},
		RegState{Key: SchemeKey + `\shell\open\command`, What: "buildstation:// handler"},
	}
}

// winCommandLine quotes argv for a Windows command line (the
// CommandLineToArgvW rules windows.ComposeCommandLine follows), quoting
// the program always, as the shell's registry entries do.
func winCommandLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if i == 0 {
			q[i] = `"` + strings.ReplaceAll(a, `"`, "") + `"`
			continue
		}
		q[i] = winargs.EscapeArg(a)
	}
	return strings.Join(q, " ")
}
