//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: rusage OUT COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintf(os.Stderr, "rusage: %v\n", err)
		os.Exit(2)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	line := fmt.Sprintf("%d %d %d\n", ru.Utime.Nano(), ru.Stime.Nano(), ru.Maxrss)
	if err := os.WriteFile(os.Args[1], []byte(line), 0o600); err != nil {
		fmt.Fprintf(os.Stderr, "rusage: %v\n", err)
		os.Exit(2)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
