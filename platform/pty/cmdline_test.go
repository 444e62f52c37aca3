package pty

import (
	"errors"
	"testing"

	"github.com/buildstation/buildstation/platform/winargs"
)

const testCmdExe = `C:\Windows\System32\cmd.exe`

func TestCommandLineProgram(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{`C:\bin\claude.exe`}, `C:\bin\claude.exe`},
		{[]string{`C:\Program Files\nodejs\node.exe`, "cli.js"}, `"C:\Program Files\nodejs\node.exe" cli.js`},
		{[]string{`C:\bin\claude.exe`, "fix the \"login\" bug", ""}, `C:\bin\claude.exe "fix the \"login\" bug" ""`},
		{[]string{`C:\bin\a.exe`, `C:\dir with space\`}, `C:\bin\a.exe "C:\dir with space\\"`},
		{[]string{`C:\bin\a.exe`, `q\"x`}, `C:\bin\a.exe q\\\"x`},
		{[]string{`C:\bin\a.exe`, `50%`, `a&b`}, `C:\bin\a.exe 50% a&b`}, // no cmd.exe: nothing to escape
	}
	for _, tt := range tests {
		app, line, err := commandLine(tt.argv[0], tt.argv[1:], testCmdExe, winargs.ComposeCommandLine)
		if err != nil {
			t.Fatalf("commandLine(%q): %v", tt.argv, err)
		}
		if app != tt.argv[0] || line != tt.want {
			t.Errorf("commandLine(%q) = %q, %s; want %q, %s", tt.argv, app, line, tt.argv[0], tt.want)
		}
	}
}

func TestCommandLineBatch(t *testing.T) {
	const pre = `cmd.exe /e:ON /v:OFF /d /s /c ""`
	tests := []struct {
		script string
		args   []string
		want   string
	}{
		{`C:\Users\me\AppData\Roaming\npm\claude.cmd`, nil,
			pre + `C:\Users\me\AppData\Roaming\npm\claude.cmd""`},
		{`C:\npm\claude.CMD`, []string{"--settings", `C:\h\s.json`},
			pre + `C:\npm\claude.CMD" --settings C:\h\s.json"`},
		{`C:\Program Files\x\run.bat`, []string{"fix the login bug"},
			pre + `C:\Program Files\x\run.bat" "fix the login bug""`},
		// Quotes double; cmd operators stay inside quotes.
		{`C:\x\a.cmd`, []string{`say "hi" & del *`}, pre + `C:\x\a.cmd" "say ""hi"" & del *""`},
		// %VAR% is never expanded.
		{`C:\x\a.cmd`, []string{`%PATH%`}, pre + `C:\x\a.cmd" "%%cd:~,%PATH%%cd:~,%""`},
		// A trailing backslash would escape the closing quote of "%~1".
		{`C:\x\a.cmd`, []string{`C:\dir\`, ""}, pre + `C:\x\a.cmd" "C:\dir\\" """`},
		// Backslashes before a quote double, as the script's argv parser wants.
		{`C:\x\a.cmd`, []string{`a\"b`}, pre + `C:\x\a.cmd" "a\\""b""`},
		// Safe symbols need no quotes.
		{`C:\x\a.cmd`, []string{`-p`, `a/b.c:d@e#1`, `naïve`}, pre + `C:\x\a.cmd" -p a/b.c:d@e#1 naïve"`},
	}
	for _, tt := range tests {
		app, line, err := commandLine(tt.script, tt.args, testCmdExe, winargs.ComposeCommandLine)
		if err != nil {
			t.Fatalf("commandLine(%q, %q): %v", tt.script, tt.args, err)
		}
		if app != testCmdExe {
			t.Errorf("commandLine(%q) runs %q; want cmd.exe", tt.script, app)
		}
		if line != tt.want {
			t.Errorf("commandLine(%q, %q)\n got %s\nwant %s", tt.script, tt.args, line, tt.want)
		}
	}
}

func TestCommandLineBatchRefuses(t *testing.T) {
	if _, _, err := commandLine(`C:\x\a.cmd`, []string{"two\nlines"}, testCmdExe, winargs.ComposeCommandLine); !errors.Is(err, errBatchArg) {
		t.Errorf("a line break in a batch argument: err = %v; want errBatchArg", err)
	}
	if _, _, err := commandLine(`C:\x\a".cmd`, nil, testCmdExe, winargs.ComposeCommandLine); err == nil {
		t.Error("a quote in the script name: no error")
	}
}

func TestIsBatch(t *testing.T) {
	for p, want := range map[string]bool{
		`C:\npm\claude.cmd`: true, `C:\npm\CLAUDE.BAT`: true, `C:\npm\claude.exe`: false,
		`C:\npm.cmd\claude`: false, `claude`: false, `C:\x\a.cmd.exe`: false,
	} {
		if got := isBatch(p); got != want {
			t.Errorf("isBatch(%q) = %v; want %v", p, got, want)
		}
	}
}
