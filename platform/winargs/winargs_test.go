package winargs

import (
	"slices"
	"testing"
)

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

// Split reads back what ComposeCommandLine writes.
func TestSplitRoundTrip(t *testing.T) {
	for _, argv := range cases[:4] {
		if got := Split(ComposeCommandLine(argv)); !slices.Equal(got, argv) {
			t.Errorf("Split(ComposeCommandLine(%q)) = %q", argv, got)
		}
	}
	if got, want := Split(`"C:\a b\x.exe" --home "D:\x & y\\" open "%1"`), []string{`C:\a b\x.exe`, "--home", `D:\x & y\`, "open", "%1"}; !slices.Equal(got, want) {
		t.Errorf("Split = %q, want %q", got, want)
	}
}
