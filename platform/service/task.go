package service

import (
	"encoding/xml"
	"strings"
	"unicode/utf16"

	"github.com/buildstation/buildstation/platform/winargs"
)

// Why a Task Scheduler task, not an SCM service or the Run key alone:
//
//   - A normal user may register a task for themself: a logon trigger
//     scoped to their own account with the InteractiveToken logon type
//     ("run only when the user is logged on") needs neither admin rights
//     nor a password, and runs the program in the user's own session with
//     the user's own (filtered, least-privilege) token — a browser for
//     `claude /login`, the user's credentials, nothing elevated. An
//     unscoped logon trigger ("any user"), S4U ("whether logged on or
//     not") or a boot trigger each need admin rights.
//   - An SCM service as the user needs admin rights, the user's password
//     (unknown to people who sign in with a PIN or a Microsoft account) and
//     "Log on as a service", and runs in session 0.
//   - The Run key starts a program once at logon and never again: nothing
//     restarts a station that died.
//
// The task restarts a station that failed to start (RestartOnFailure) and,
// since Task Scheduler's failure is about starting the action, not about
// the process's exit code, the logon trigger also repeats every five
// minutes: with MultipleInstancesPolicy IgnoreNew a running station is left
// alone, a dead one is started again. The station holds an OS lock on its
// home, so one started beside it by hand exits 0 at once.

// TaskName is the logon task's name: in the root folder, where a normal
// user may create tasks, and per user, as task names are machine-wide.
func TaskName(c Config) string {
	u := c.User
	if i := strings.LastIndexAny(u, `\/`); i >= 0 {
		u = u[i+1:]
	}
	u = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`\/:*?"<>|`, r) || r < ' ' {
			return '_'
		}
		return r
	}, u)
	if u == "" {
		return Name
	}
	return Name + "-" + u
}

// TaskXML is the logon task's definition, in the Task Scheduler schema
// (1.2: Windows 7 and later).
func TaskXML(c Config) string {
	args := c.daemonArgs()
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = winargs.EscapeArg(a)
	}
	return `<?xml version="1.0" encoding="UTF-16"?>
<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">
  <RegistrationInfo>
    <Author>` + esc(c.User) + `</Author>
    <Description>Build Station: supervises AI coding-agent sessions (buildstation daemon). Installed by buildstation service install.</Description>
  </RegistrationInfo>
  <Triggers>
    <LogonTrigger>
      <Enabled>true</Enabled>
      <UserId>` + esc(c.User) + `</UserId>
      <Repetition>
        <Interval>PT5M</Interval>
        <StopAtDurationEnd>false</StopAtDurationEnd>
      </Repetition>
    </LogonTrigger>
  </Triggers>
  <Principals>
    <Principal id="Author">
      <UserId>` + esc(c.User) + `</UserId>
      <LogonType>InteractiveToken</LogonType>
      <RunLevel>LeastPrivilege</RunLevel>
    </Principal>
  </Principals>
` + taskSettings + `  <Actions Context="Author">
    <Exec>
      <Command>` + esc(c.gui()) + `</Command>
      <Arguments>` + esc(strings.Join(q, " ")) + `</Arguments>
      <WorkingDirectory>` + esc(c.Home) + `</WorkingDirectory>
    </Exec>
  </Actions>
</Task>
`
}

// taskSettings is the task's fixed <Settings>: one instance, on battery
// too, no time limit, restarted after a failure.
const taskSettings = `  <Settings>
    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>
    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>
    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>
    <AllowHardTerminate>true</AllowHardTerminate>
    <StartWhenAvailable>true</StartWhenAvailable>
    <RunOnlyIfNetworkAvailable>false</RunOnlyIfNetworkAvailable>
    <IdleSettings>
      <StopOnIdleEnd>false</StopOnIdleEnd>
      <RestartOnIdle>false</RestartOnIdle>
    </IdleSettings>
    <AllowStartOnDemand>true</AllowStartOnDemand>
    <Enabled>true</Enabled>
    <Hidden>false</Hidden>
    <RunOnlyIfIdle>false</RunOnlyIfIdle>
    <WakeToRun>false</WakeToRun>
    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>
    <Priority>5</Priority>
    <RestartOnFailure>
      <Interval>PT1M</Interval>
      <Count>3</Count>
    </RestartOnFailure>
  </Settings>
`

// esc escapes text for an XML element.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// utf16File is s as schtasks reads a task file: UTF-16 little endian with
// a byte order mark and CRLF lines (it refuses UTF-8 that the declaration
// calls UTF-16, and most UTF-8 besides).
func utf16File(s string) []byte {
	s = strings.ReplaceAll(s, "\n", "\r\n")
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2, 2+2*len(u))
	b[0], b[1] = 0xFF, 0xFE
	for _, r := range u {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}
