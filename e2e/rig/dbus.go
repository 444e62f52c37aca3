//go:build unix

package rig

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// PrivateBus starts a D-Bus session daemon of the test's own, stopped at
// the test's cleanup, and returns its address: notification and tray tests
// talk to it, never to the desktop's bus. Without dbus-daemon the test is
// skipped (failed in CI, where .ci/deps installs it).
func PrivateBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("dbus-daemon is not installed (apt-get install dbus-daemon)")
		}
		t.Skip("dbus-daemon is not installed")
	}
	return Bus(t, nil)
}

// Bus starts a D-Bus session daemon until the test ends, with env added
// to its environment (what the services it starts inherit), and returns
// its address.
func Bus(t *testing.T, env []string) string {
	t.Helper()
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(addr)
}
