package pty

import (
	"testing"

	"golang.org/x/sys/windows"
)

func TestRefComposeMatchesXSys(t *testing.T) {
	for _, argv := range composeCases {
		if got, want := refCompose(argv), windows.ComposeCommandLine(argv); got != want {
			t.Errorf("refCompose(%q) = %s; windows.ComposeCommandLine = %s", argv, got, want)
		}
	}
}

func TestIsConPtyAvailable(t *testing.T) {
	// Wine and Windows before 1809 lack it; say which this is.
	t.Logf("ConPTY available: %v", IsConPtyAvailable())
}
