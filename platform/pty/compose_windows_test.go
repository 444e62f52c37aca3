package pty

import "testing"

func TestIsConPtyAvailable(t *testing.T) {
	// Wine and Windows before 1809 lack it; say which this is.
	t.Logf("ConPTY available: %v", IsConPtyAvailable())
}
