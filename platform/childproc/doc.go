// Package childproc is the one constructor of a child process that the
// station, the tray or the CLI starts outside a terminal: git, a gate,
// schtasks, launchctl, a hook, a second face of the program.
//
// On Windows a console program started by a process with no console (the
// GUI face buildstationw.exe, which the logon task, the Run key and links
// start) gets a console window of its own: a black window flashes for every
// git call, gate run and schtasks call. Every child made here is created
// with CREATE_NO_WINDOW, so it runs with a console that has no window. The
// agents themselves are not made here: they run inside a ConPTY (platform/pty)
// or tmux, whose pseudo-console is their terminal.
//
// internal/checks/architecture's TestOneChildConstructor fails when any other
// package calls exec.Command or exec.CommandContext, or builds an exec.Cmd
// itself, outside the exceptions it lists with their reasons.
package childproc
