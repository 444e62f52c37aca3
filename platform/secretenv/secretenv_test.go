package secretenv

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/platform/childproc"
)

const secret = "ghp_secretenv_test_value"

// The issue's attack, one step on: a station started as `GHTOK=ghp_…
// buildstation daemon` kept GHTOK out of its sessions' environment, but a
// gate, a setup, git's hooks, the tmux server and [hooks] commands inherit
// the station's own environment (a gate runs the agent's tests), and the
// agent can read its parent station's /proc/<pid>/environ. After Take, no
// child started later inherits the variable, the station still reads it,
// and on Linux the block /proc/self/environ shows holds it no more.
func TestTakeKeepsSecretsFromChildren(t *testing.T) {
	if os.Getenv("SECRETENV_CHILD") == "1" {
		child()
		return
	}
	cmd := childproc.Command(os.Args[0], "-test.run=^TestTakeKeepsSecretsFromChildren$", "-test.v")
	cmd.Env = append(os.Environ(), "SECRETENV_CHILD=1", "GHTOK="+secret, "ghtok_lower=lower_"+secret, "KEEP=kept")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the station stand-in failed: %v\n%s", err, out)
	}
	for _, want := range []string{"getenv=" + secret, "lower=lower_" + secret, "keep=kept"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the station no longer reads what it took (want %q):\n%s", want, out)
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "leak") {
			t.Error(line)
		}
	}
}

// child is the station: it takes GHTOK (and ghtok_lower, named in another
// case) and reports what it and its own child see.
func child() {
	Take([]string{"GHTOK", "GHTOK_LOWER"})
	os.Stdout.WriteString("getenv=" + Getenv("GHTOK") + "\nlower=" + Getenv("ghtok_lower") + "\nkeep=" + os.Getenv("KEEP") + "\n")
	if os.Getenv("GHTOK") != "" {
		os.Stdout.WriteString("leak os.Getenv still has GHTOK\n")
	}
	var env *bytes.Buffer = new(bytes.Buffer)
	c := childproc.Command("env")
	if runtime.GOOS == "windows" {
		c = childproc.Command("cmd", "/c", "set")
	}
	c.Stdout = env
	if err := c.Run(); err != nil {
		os.Stdout.WriteString("leak? could not run env: " + err.Error() + "\n")
	}
	if strings.Contains(env.String(), secret) {
		os.Stdout.WriteString("leak a child process inherited the secret\n")
	}
	if runtime.GOOS == "linux" {
		b, err := os.ReadFile("/proc/self/environ")
		if err != nil {
			os.Stdout.WriteString("leak? read /proc/self/environ: " + err.Error() + "\n")
		}
		if bytes.Contains(b, []byte(secret)) {
			os.Stdout.WriteString("leak /proc/self/environ still shows the secret\n")
		}
		if !bytes.Contains(b, []byte("KEEP=kept")) {
			os.Stdout.WriteString("leak? /proc/self/environ lost KEEP\n")
		}
	}
}
