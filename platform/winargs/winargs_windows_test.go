package winargs

import (
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
