//go:build windows

package cli

import (
	"io"
	"os"

	"golang.org/x/sys/windows"
)

// enableVT turns on VT sequence processing for a console on w, because a
// session's output (ConPTY) is full of them and a legacy console would
// print them as text. It returns a func that puts the old mode back.
func enableVT(w io.Writer) func() {
	f, ok := w.(*os.File)
	if !ok {
		return func() {}
	}
	h := windows.Handle(f.Fd())
	var mode uint32
	if windows.GetConsoleMode(h, &mode) != nil {
		return func() {}
	}
	if windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) != nil {
		return func() {}
	}
	return func() { _ = windows.SetConsoleMode(h, mode) }
}

// attachConsole is kernel32's AttachConsole, which x/sys/windows lacks.
var attachConsole = windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")

// attachParentProcess is ATTACH_PARENT_PROCESS ((DWORD)-1).
const attachParentProcess = ^uint32(0)

// AttachParentConsole gives the GUI face (buildstationw.exe, linked as a
// Windows GUI program) the console of the shell it was typed in, for the
// verbs that only print (--version, help), so `buildstationw.exe
// --version` prints the release there as buildstation.exe does. Windows
// starts a GUI program without standard handles unless its parent passes
// some (a redirect, a pipe); with a usable stdout, or without a parent
// console (the logon task, a link), it changes nothing.
func AttachParentConsole(args []string) {
	if !PrintsOnly(args) || stdoutUsable() {
		return
	}
	if r, _, _ := attachConsole.Call(uintptr(attachParentProcess)); r == 0 {
		return
	}
	f, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0)
	if err != nil {
		return
	}
	os.Stdout, os.Stderr = f, f
}

// stdoutUsable: the process was given a standard output handle.
func stdoutUsable() bool {
	h, err := windows.GetStdHandle(windows.STD_OUTPUT_HANDLE)
	return err == nil && h != 0 && h != windows.InvalidHandle
}
