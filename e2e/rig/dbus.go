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
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
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
