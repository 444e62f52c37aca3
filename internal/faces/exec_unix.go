//go:build unix

package faces

import (
	"fmt"
	"os"
	"syscall"
)

// handOver replaces this process with app: the same process id, signals,
// terminal and exit code, as if the app had been run.
func handOver(app string, args []string) (int, error) {
	argv := append([]string{app}, args...)
	if err := syscall.Exec(app, argv, os.Environ()); err != nil {
		return 0, fmt.Errorf("run %s: %w", app, err)
	}
	return 0, nil // not reached
}
