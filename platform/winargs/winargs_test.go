package winargs

import "testing"

// cases are argvs whose quoting matters: spaces, quotes, trailing
// backslashes before a closing quote, empty arguments.
var cases = [][]string{
	{`C:\Program Files\nodejs\node.exe`, "--version"},
	{`C:\bin\claude.exe`, "fix the \"login\" bug", ""},
	{`C:\bin\a.exe`, `C:\dir with space\`, `back\\slash`, `q\"x`},
	{`C:\bin\a.exe`, "tab\there", `plain`, `-p=%PATH%`},
	{`"C:\odd"\a.exe`},
}

func TestComposeCommandLine(t *testing.T) {
	want := []string{
		`"C:\Program Files\nodejs\node.exe" --version`,
		`C:\bin\claude.exe "fix the \"login\" bug" ""`,
		`C:\bin\a.exe "C:\dir with space\\" back\\slash q\\\"x`,
		"C:\\bin\\a.exe \"tab\there\" plain -p=%PATH%",
		`"C:\odd\a.exe"`,
	}
	for i, argv := range cases {
		if got := ComposeCommandLine(argv); got != want[i] {
			t.Errorf("ComposeCommandLine(%q) = %s, want %s", argv, got, want[i])
		}
	}
}
