package cli_test

import (
	"testing"

	"github.com/buildstation/buildstation/cli"
)

// The GUI face takes its parent's console for --version and help only:
// a tray, a station or a link opened from a console never holds it.
func TestPrintsOnly(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--version"}, true},
		{[]string{"-v"}, true},
		{[]string{"version"}, true},
		{[]string{"version", "--check"}, true},
		{[]string{"--home", `C:\h`, "--version"}, true},
		{[]string{"--home=C:\\h", "help"}, true},
		{[]string{"--help"}, true},
		{nil, false},
		{[]string{"--hidden"}, false},
		{[]string{"daemon"}, false},
		{[]string{"open", "buildstation://session/x"}, false},
		{[]string{"--home", "--version"}, false},
		{[]string{"service", "pause"}, false},
	} {
		if got := cli.PrintsOnly(tc.args); got != tc.want {
			t.Errorf("PrintsOnly(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
