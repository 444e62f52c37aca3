// Package winargs quotes arguments for a Windows command line by the
// CommandLineToArgvW rules, in plain Go for every OS: the station composes
// Windows command lines where it runs, and the service installer writes
// them into registry values it also generates (and tests) on Linux and
// macOS. golang.org/x/sys/windows has the same functions, but builds only
// for Windows; winargs_windows_test.go checks the two agree.
package winargs
