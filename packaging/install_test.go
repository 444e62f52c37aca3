package packaging

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMakeInstall runs `make install PREFIX=DIR` as a contributor would
// and then the installed programs: PREFIX/bin holds buildstation (the
// command line) and buildstation-app (the whole program) side by side,
// both say the same --version, the command line hands `board status`
// (which it does not link: cmd/buildstation's TestFrontLinksNothingHeavy)
// to the app, and make says the PATH line to add. The app is built
// without cgo here (CGO_ENABLED=0, as `CGO_ENABLED=0 make install`): the
// cgo build is the same command with the tray linked, and make check
// builds that one.
func TestMakeInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both programs")
	}
	if runtime.GOOS == "windows" {
		t.Skip("make install is for Unix; Windows installs the MSI")
	}
	for _, tool := range []string{"make", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on PATH", tool)
		}
	}
	prefix := filepath.Join(t.TempDir(), "local")
	cmd := exec.Command("make", "-s", "-C", "..", "install", "PREFIX="+prefix)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make install PREFIX=%s: %v\n%s", prefix, err, out)
	}
	bin := filepath.Join(prefix, "bin")
	if want := `export PATH="` + bin + `:$PATH"`; !strings.Contains(string(out), want) {
		t.Errorf("make install did not say the PATH line %s:\n%s", want, out)
	}
	entries, err := os.ReadDir(bin)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "buildstation buildstation-app" {
		t.Errorf("%s holds %v, want buildstation and buildstation-app", bin, names)
	}
	home := t.TempDir()
	run := func(prog string, args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(bin, prog), args...)
		cmd.Env = append(os.Environ(), "BUILDSTATION_HOME="+home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s %s: %v\n%s", prog, strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	front, app := run("buildstation", "--version"), run("buildstation-app", "--version")
	if !strings.HasPrefix(front, "buildstation ") || front != app {
		t.Errorf("--version: the command line says %q, the app %q; want the same buildstation x.y.z", front, app)
	}
	if out := run("buildstation", "board", "status"); !strings.Contains(out, "embedded board") {
		t.Errorf("the installed command line's board status (handed to the app): %s", out)
	}
}
