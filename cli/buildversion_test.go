package cli_test

import (
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/cli"
	upd "github.com/buildstation/buildstation/internal/update"
)

// A build without the release's -X (go install, go build, fyne package
// from a clone) says the same version scripts/version.sh gives for that
// clone: the tag's on a clean tagged commit, else x.y.z-dev+<commit>, and
// never +dirty from a file the build itself wrote (the metadata file
// fyne package writes, a .syso).
func TestVersionOfABuildWithoutX(t *testing.T) {
	rev := "4fd9b41a1b2c3d4e5f60718293a4b5c6d7e8f901"
	settings := func(modified bool) []debug.BuildSetting {
		m := "false"
		if modified {
			m = "true"
		}
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: m}}
	}
	dev := strings.TrimSuffix(cli.DevVersion, "-dev") + "-dev+4fd9b41a1b2c"
	for _, tc := range []struct {
		main     string
		modified bool
		want     string
	}{
		{"v0.3.0", false, "0.3.0"},
		{"v0.2.1-rc1", false, "0.2.1-rc1"},
		{"v1.2.3+dirty", true, dev},
		{"v0.3.1-0.20261205044700-4fd9b41a1b2c", false, dev},
		{"v0.3.1-0.20261205044700-4fd9b41a1b2c+dirty", true, dev},
		{"v0.0.0-20261205044700-4fd9b41a1b2c", false, dev},
		{"(devel)", false, dev},
		{"", false, dev},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tc.main}, Settings: settings(tc.modified)}
		if got := cli.BuildVersion(bi); got != tc.want {
			t.Errorf("stamped %q (modified %v): %q, want %q", tc.main, tc.modified, got, tc.want)
		}
	}
	if got := cli.BuildVersion(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}); got != cli.DevVersion {
		t.Errorf("no VCS information: %q, want %q", got, cli.DevVersion)
	}
	if got := cli.BuildVersion(nil); got != cli.DevVersion {
		t.Errorf("no build information: %q, want %q", got, cli.DevVersion)
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+-dev\+[0-9a-f]{12}$`).MatchString(dev) {
		t.Errorf("the dev form %q is not x.y.z-dev+<12 hex>", dev)
	}
}

// The dev version's x.y.z is FyneApp.toml's Version: scripts/version.sh
// reads it there, the program here, and both must say the same.
func TestDevVersionIsFyneAppVersion(t *testing.T) {
	b, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*Version\s*=\s*"([^"]+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatal("FyneApp.toml has no Version")
	}
	if want := string(m[1]) + "-dev"; cli.DevVersion != want {
		t.Fatalf("cli's dev version %q, FyneApp.toml says %q", cli.DevVersion, want)
	}
}

// With BUILDSTATION_UPDATE_URL=off, version --check says the check is off
// and how to turn it on, not to try again later.
func TestVersionCheckOff(t *testing.T) {
	t.Setenv(upd.EnvURL, "off")
	r := run(t, "", "version", "--check")
	if r.code != 0 || !strings.Contains(r.stdout, "update checks are off (BUILDSTATION_UPDATE_URL=off)") || strings.Contains(r.stdout+r.stderr, "try again later") {
		t.Fatalf("off: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
}
