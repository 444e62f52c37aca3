package pty

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/sys/windows"

	"github.com/buildstation/buildstation/supervisor"
)

// IsConPtyAvailable says what Spawn finds: where it says yes, a session
// starts and its exit code comes back; where it says no, Spawn refuses
// with ErrNoConPTY naming this Windows' version. And Windows 10 1809
// (build 17763) or later, which its error names as the floor, has it.
func TestIsConPtyAvailable(t *testing.T) {
	avail := IsConPtyAvailable()
	v := windows.RtlGetVersion()
	t.Logf("ConPTY available: %v (Windows %d.%d build %d, Wine %v)", avail, v.MajorVersion, v.MinorVersion, v.BuildNumber, underWine())
	if !avail && (v.MajorVersion > 10 || v.MajorVersion == 10 && v.BuildNumber >= 17763) {
		t.Errorf("Windows %d.%d build %d is 1809 or later, yet IsConPtyAvailable says no", v.MajorVersion, v.MinorVersion, v.BuildNumber)
	}
	p, err := New().Spawn(supervisor.SpawnSpec{Argv: []string{"cmd.exe", "/c", "exit 3"}, Dir: tempDir(t)})
	if !avail {
		if !errors.Is(err, ErrNoConPTY) || !strings.Contains(err.Error(), "this is Windows") {
			t.Fatalf("Spawn without ConPTY: %v; want ErrNoConPTY naming the version", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("IsConPtyAvailable says yes, yet Spawn fails: %v", err)
	}
	go func() { // a reader, as the session has; Wine may send nothing
		b := make([]byte, 4096)
		for {
			if _, err := p.Read(b); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { _ = p.Stop(0); _ = p.Close() })
	if code := waitWin(t, p); code != 3 {
		t.Errorf("exit code %d through ConPTY, want 3", code)
	}
}
