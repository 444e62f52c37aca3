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

// composeCases are argvs whose quoting matters: spaces, quotes, trailing
// backslashes before a closing quote, empty arguments.
var composeCases = [][]string{
	{`C:\Program Files\nodejs\node.exe`, "--version"},
	{`C:\bin\claude.exe`, "fix the \"login\" bug", ""},
	{`C:\bin\a.exe`, `C:\dir with space\`, `back\\slash`, `q\"x`},
	{`C:\bin\a.exe`, "tab\there", `plain`, `-p=%PATH%`},
	{`"C:\odd"\a.exe`},
}
