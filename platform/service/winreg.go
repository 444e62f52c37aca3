package service

import (
	"errors"
	"fmt"
	"strings"

	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/platform/winargs"
)

// Registry keys under HKEY_CURRENT_USER.
const (
	RunKey    = `Software\Microsoft\Windows\CurrentVersion\Run`
	SchemeKey = `Software\Classes\` + deeplink.Scheme
)

// Windows installs, without admin rights and without the user's password:
//
//   - the station as a Task Scheduler task of the installing user (a logon
//     trigger scoped to that user, "run only when the user is logged on",
//     least privilege), which runs it in the user's own logon session with
//     the user's own token, at every logon, and again every few minutes
//     should it have died (task.go says why this and not an SCM service);
//   - the tray from the HKCU Run key, and the buildstation:// scheme under
//     HKCU\Software\Classes, both only for a build with a tray.
//
// `service install --system` asks for the old way instead: an SCM service
// that runs as the user (admin rights, the user's password, session 0).
type Windows struct{}

// RegValue is one registry value a plan sets.
type RegValue struct{ Key, Name, Value string }

// gui is the program the logon task, the Run key and the link handler
// start: the GUI-subsystem buildstationw.exe when it is there, so that no
// console window opens (and closing one cannot kill the tray).
func (c Config) gui() string {
	if c.GUIExe != "" {
		return c.GUIExe
	}
	return c.Exe
}

// RegistryValues are every HKCU value Install sets, in order: none for a
// build without a tray.
func RegistryValues(c Config) []RegValue {
	if !c.Tray {
		return nil
	}
	tray := c.trayArgs()
	tray[0] = c.gui()
	open := []string{c.gui(), "open"}
	if c.HomeFlag {
		open = []string{c.gui(), "--home", c.Home, "open"}
	}
	return []RegValue{
		{RunKey, Name, winCommandLine(tray)},
		{SchemeKey, "", "URL:Build Station"},
		{SchemeKey, "URL Protocol", ""},
		{SchemeKey + `\DefaultIcon`, "", winCommandLine([]string{c.gui()}) + ",0"},
		{SchemeKey + `\shell\open\command`, "", winCommandLine(open) + ` "%1"`},
	}
}

// StationService is the Windows service `service install --system` creates.
func StationService(c Config) WinService {
	return WinService{
		Name: Name, DisplayName: DisplayName, Description: Description,
		Exe: c.Exe, Args: []string{"service", "run", "--home", c.Home}, User: c.User,
	}
}

// checkWindowsPaths refuses a program or home path holding '%': the shell
// substitutes %1, %* and %L in a link handler's command, and Task Scheduler
// expands %VAR% in a task's command and arguments, so such a path would
// run something else. No quoting prevents either.
func (c Config) checkWindowsPaths() error {
	for _, p := range []struct{ what, path string }{{"program", c.Exe}, {"program", c.GUIExe}, {"home", c.Home}} {
		if strings.Contains(p.path, "%") {
			return fmt.Errorf("the %s path %s contains %%, which Windows would expand in the logon task and the link handler; move it to a folder without %% (or pass --home with one)", p.what, p.path)
		}
	}
	return nil
}

func (w Windows) Install(c Config) (Plan, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := c.checkWindowsPaths(); err != nil {
		return nil, err
	}
	if c.User == "" {
		return nil, errors.New("the installing account is unknown; the logon task is scoped to it")
	}
	var p Plan
	if c.System {
		p = Plan{CreateService{Service: StationService(c)}}
	} else {
		xml := taskFile(c)
		p = Plan{
			WriteFile{Path: xml, Mode: 0o600, Data: utf16File(TaskXML(c)), Text: TaskXML(c) + "(written as UTF-16, as schtasks reads it)", What: "logon task definition"},
			Run{Argv: []string{"schtasks.exe", "/create", "/tn", TaskName(c), "/xml", xml, "/f"},
				Undo: []string{"schtasks.exe", "/delete", "/tn", TaskName(c), "/f"}},
		}
	}
	for i, v := range RegistryValues(c) {
		p = append(p, RegSet{Key: v.Key, Name: v.Name, Value: v.Value, OwnsKey: i == 1})
	}
	if !c.Tray {
		p = append(p, noTray)
	}
	if c.System {
		return append(p, Run{Argv: []string{"sc.exe", "start", Name}, Tolerate: true, Note: "start it with `buildstation service start --system` once the cause is fixed"}), nil
	}
	return append(p, Run{Argv: []string{"schtasks.exe", "/run", "/tn", TaskName(c)}, Tolerate: true, Note: "it starts at your next logon; or run `buildstation service start`"}), nil
}

func (w Windows) Uninstall(c Config) Plan {
	var p Plan
	if c.System {
		p = Plan{
			Run{Argv: []string{"sc.exe", "stop", Name}, Tolerate: true, Note: "fine: it was not running"},
			DeleteService{Name: Name},
		}
	} else {
		p = Plan{
			Run{Argv: []string{"schtasks.exe", "/end", "/tn", TaskName(c)}, Tolerate: true, Note: "fine: it was not running"},
			Run{Argv: []string{"schtasks.exe", "/delete", "/tn", TaskName(c), "/f"}, Tolerate: true, Note: "fine: it was not installed"},
			RemoveFile{Path: taskFile(c), What: "logon task definition"},
		}
	}
	// The tray and the link handler go whatever the build: a build without
	// a tray still removes what another build wrote.
	return append(p,
		RegDeleteValue{Key: RunKey, Name: Name},
		RegDeleteTree{Key: SchemeKey},
	)
}

// Installed: the task definition Install wrote in the home is there (an
// install for another home writes its own there).
func (Windows) Installed(c Config, sys System) bool {
	if c.System {
		ok, err := sys.ServiceExists(Name)
		return err == nil && ok
	}
	_, err := sys.ReadFile(taskFile(c))
	return err == nil
}

// Start enables the logon task (`service stop` disabled it) and runs it.
func (Windows) Start(c Config) Plan {
	if c.System {
		return Plan{
			Run{Argv: []string{"sc.exe", "config", Name, "start=", "delayed-auto"}},
			Run{Argv: []string{"sc.exe", "start", Name}},
		}
	}
	return Plan{
		Run{Argv: []string{"schtasks.exe", "/change", "/tn", TaskName(c), "/enable"}},
		Run{Argv: []string{"schtasks.exe", "/run", "/tn", TaskName(c)}},
	}
}

// Stop disables the logon task, asks the station to drain and waits for
// it (AskToStop), then ends what is left (schtasks /end terminates it;
// the station's job objects end the agents with it).
// Disabled first: the trigger's five-minute repetition would otherwise
// start the station again, and so would the next logon. `service start`
// enables it again.
func (Windows) Stop(c Config) Plan {
	if c.System {
		return Plan{
			c.drainNote(),
			Run{Argv: []string{"sc.exe", "config", Name, "start=", "demand"}},
			Run{Argv: []string{"sc.exe", "stop", Name}, Tolerate: true, Note: "fine: it was not running"},
		}
	}
	return Plan{
		c.askFirstNote(),
		Run{Argv: []string{"schtasks.exe", "/change", "/tn", TaskName(c), "/disable"}},
		AskToStop{Wait: c.stopWait(), Ask: c.AskStop},
		Run{Argv: []string{"schtasks.exe", "/end", "/tn", TaskName(c)}, Tolerate: true, Note: "fine: it was not running"},
	}
}

// Enabled: the logon task's own Enabled setting (the --system service's
// start type is not read: unknown).
func (Windows) Enabled(c Config, sys System) (bool, bool) {
	if c.System {
		return false, false
	}
	return taskEnabled(c).Enabled(sys)
}

func taskEnabled(c Config) EnabledState {
	return EnabledState{Argv: []string{"schtasks.exe", "/query", "/tn", TaskName(c), "/xml"}, What: "logon task " + TaskName(c), Parse: parseTaskEnabled}
}

func (Windows) Status(c Config) Plan {
	p := Plan{
		FileState{Path: taskFile(c), What: "logon task definition"},
		taskEnabled(c),
		ServiceState{Name: Name},
	}
	if c.Tray {
		p = append(p, RegState{Key: RunKey, Name: Name, What: "tray login item"})
	}
	return append(p, RegState{Key: SchemeKey + `\shell\open\command`, What: "buildstation:// handler"})
}

// ServiceState reports whether the opt-in SCM service exists (status):
// an install from an older version, or `install --system`.
type ServiceState struct{ Name string }

func (s ServiceState) Apply(sys System) (string, error) {
	ok, err := sys.ServiceExists(s.Name)
	switch {
	case err != nil:
		return fmt.Sprintf("SCM service %s: cannot tell (%v)", s.Name, err), nil
	case ok:
		return fmt.Sprintf("SCM service %s: installed (the --system opt-in; `service uninstall --system` removes it)", s.Name), nil
	}
	return fmt.Sprintf("SCM service %s: not installed (right: the logon task runs the station)", s.Name), nil
}

func (s ServiceState) Describe() string { return "would check SCM service " + s.Name }

// taskFile is where Install keeps the task's XML, in the home: schtasks
// reads it from a file.
func taskFile(c Config) string {
	return strings.TrimRight(c.Home, `\`) + `\autostart\BuildStation-task.xml`
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
