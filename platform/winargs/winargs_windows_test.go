package winargs

import (
	"slices"
	"testing"

	"golang.org/x/sys/windows"
)

// On Windows the reference is at hand: the two must agree.
func TestMatchesXSys(t *testing.T) {
	for _, argv := range cases {
		if got, want := ComposeCommandLine(argv), windows.ComposeCommandLine(argv); got != want {
			t.Errorf("ComposeCommandLine(%q) = %s; windows.ComposeCommandLine = %s", argv, got, want)
		}
	}
}

// Split agrees with the system's own splitting (CommandLineToArgvW).
func TestSplitMatchesXSys(t *testing.T) {
	for _, argv := range cases[:4] {
		line := ComposeCommandLine(argv)
		want, err := windows.DecomposeCommandLine(line)
		if err != nil {
			t.Fatal(err)
		}
		if got := Split(line); !slices.Equal(got, want) {
			t.Errorf("Split(%s) = %q; windows.DecomposeCommandLine = %q", line, got, want)
		}
	}
}
