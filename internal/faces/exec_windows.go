package faces

import (
	"fmt"
	"os"
	"os/signal"
)

// handOver runs app as a child on this console and waits: Windows has no
// exec. The child shares the console (no new window: it is the console's
// program now). Ctrl-C reaches both (one console group); this one ignores
// it and lets the app decide, then exits with the app's code.
func handOver(app string, args []string) (int, error) {
	signal.Ignore(os.Interrupt)
	p, err := os.StartProcess(app, append([]string{app}, args...), &os.ProcAttr{
		Files: []*os.File{os.Stdin, os.Stdout, os.Stderr},
	})
	if err != nil {
		return 0, fmt.Errorf("run %s: %w", app, err)
	}
	st, err := p.Wait()
	if err != nil {
		return 0, fmt.Errorf("wait for %s: %w", app, err)
	}
	return st.ExitCode(), nil
}
