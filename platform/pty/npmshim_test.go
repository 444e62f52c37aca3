package pty

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/platform/winargs"
)

// The shims as npm's cmd-shim writes them (CRLF line ends). claudeShim is
// for a bin with no shebang (Claude Code's bin\claude.exe), codexShim for a
// node script, oldShim is npm 6's, which pnpm's still resembles.
const (
	claudeShim = "@ECHO off\r\nGOTO start\r\n:find_dp0\r\nSET dp0=%~dp0\r\nEXIT /b\r\n:start\r\nSETLOCAL\r\nCALL :find_dp0\r\n" +
		`"%dp0%\node_modules\@anthropic-ai\claude-code\bin\claude.exe"   %*` + "\r\n"
	codexShim = "@ECHO off\r\nGOTO start\r\n:find_dp0\r\nSET dp0=%~dp0\r\nEXIT /b\r\n:start\r\nSETLOCAL\r\nCALL :find_dp0\r\n\r\n" +
		"IF EXIST \"%dp0%\\node.exe\" (\r\n  SET \"_prog=%dp0%\\node.exe\"\r\n) ELSE (\r\n  SET \"_prog=node\"\r\n  SET PATHEXT=%PATHEXT:;.JS;=;%\r\n)\r\n\r\n" +
		`endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%"  "%dp0%\node_modules\@openai\codex\bin\codex.js" %*` + "\r\n"
	oldShim = "@IF EXIST \"%~dp0\\node.exe\" (\r\n  \"%~dp0\\node.exe\"  \"%~dp0\\..\\lib\\node_modules\\@google\\gemini-cli\\dist\\index.js\" %*\r\n) ELSE (\r\n" +
		"  @SETLOCAL\r\n  @SET PATHEXT=%PATHEXT:;.JS;=;%\r\n  node  \"%~dp0\\..\\lib\\node_modules\\@google\\gemini-cli\\dist\\index.js\" %*\r\n)"
)

// npmDisk is a fake Windows disk backed by a temp dir: C:\a\b is <dir>/a/b.
type npmDisk struct{ root string }

func (d npmDisk) local(p string) string {
	p = strings.TrimPrefix(strings.TrimPrefix(p, "C:"), "c:")
	return filepath.Join(d.root, filepath.FromSlash(strings.ReplaceAll(p, `\`, "/")))
}
func (d npmDisk) read(p string) ([]byte, error) { return os.ReadFile(d.local(p)) }
func (d npmDisk) isFile(p string) bool {
	fi, err := os.Stat(d.local(p))
	return err == nil && !fi.IsDir()
}
func (d npmDisk) put(t *testing.T, p, content string) {
	t.Helper()
	l := d.local(p)
	if err := os.MkdirAll(filepath.Dir(l), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scratchDir is t.TempDir whose removal may fail: under Wine it does
// ("Invalid function"), and these tests run there too.
func scratchDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "npmshim")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

const npmDir = `C:\Users\me\AppData\Roaming\npm`

// hostileArgs is what no cmd.exe may stand between: every cmd.exe special,
// CR, LF, a quote and a trailing backslash.
var hostileArgs = []string{"--flag", "multi\r\nline \" % & ^ ! < > | %PATH% !x!\nend", `C:\dir with space\`, ""}

func TestResolveNpmShims(t *testing.T) {
	const globalNode = `C:\Program Files\nodejs\node.exe`
	tests := []struct {
		name   string
		files  map[string]string // path → content
		shim   string
		node   string // node on PATH; "" = none
		want   []string
		viaCmd bool // not a shim we can read: cmd.exe runs it
	}{
		{
			name: "claude: the native binary",
			files: map[string]string{npmDir + `\claude.cmd`: claudeShim,
				npmDir + `\node_modules\@anthropic-ai\claude-code\bin\claude.exe`: "MZ"},
			shim: `claude.cmd`,
			want: []string{npmDir + `\node_modules\@anthropic-ai\claude-code\bin\claude.exe`},
		},
		{
			name: "claude before its postinstall ran: cmd.exe runs the shim",
			files: map[string]string{npmDir + `\claude.cmd`: claudeShim,
				npmDir + `\node_modules\@anthropic-ai\claude-code\cli-wrapper.cjs`: "x"},
			shim:   `claude.cmd`,
			viaCmd: true,
		},
		{
			name: "codex: node beside the shim",
			files: map[string]string{npmDir + `\codex.cmd`: codexShim, npmDir + `\node.exe`: "MZ",
				npmDir + `\node_modules\@openai\codex\bin\codex.js`: "#!/usr/bin/env node"},
			shim: `codex.cmd`,
			node: globalNode,
			want: []string{npmDir + `\node.exe`, npmDir + `\node_modules\@openai\codex\bin\codex.js`},
		},
		{
			name: "codex: node from PATH",
			files: map[string]string{npmDir + `\codex.cmd`: codexShim,
				npmDir + `\node_modules\@openai\codex\bin\codex.js`: "#!/usr/bin/env node"},
			shim: `codex.cmd`,
			node: globalNode,
			want: []string{globalNode, npmDir + `\node_modules\@openai\codex\bin\codex.js`},
		},
		{
			name: "gemini: npm 6's shim, a path with ..",
			files: map[string]string{npmDir + `\gemini.cmd`: oldShim,
				`C:\Users\me\AppData\Roaming\lib\node_modules\@google\gemini-cli\dist\index.js`: "x"},
			shim: `gemini.cmd`,
			node: globalNode,
			want: []string{globalNode, `C:\Users\me\AppData\Roaming\lib\node_modules\@google\gemini-cli\dist\index.js`},
		},
		{
			name:   "a batch file of the user's own",
			files:  map[string]string{npmDir + `\agent.cmd`: "@echo off\r\npython C:\\tools\\agent.py %*\r\n"},
			shim:   `agent.cmd`,
			viaCmd: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			disk := npmDisk{scratchDir(t)}
			for p, c := range tt.files {
				disk.put(t, p, c)
			}
			findNode := func() (string, error) {
				if tt.node == "" {
					return "", errors.New("not found")
				}
				return tt.node, nil
			}
			shim := npmDir + `\` + tt.shim
			path, args, err := resolveCommand(shim, hostileArgs, disk.read, disk.isFile, findNode)
			if err != nil {
				t.Fatal(err)
			}
			app, line, err := commandLine(path, args, testCmdExe, winargs.ComposeCommandLine)
			if tt.viaCmd {
				if path != shim || !errors.Is(err, errBatchArg) {
					t.Fatalf("resolved to %q (err %v); want the shim itself, refusing the line break cmd.exe cannot carry", path, err)
				}
				if app, _, err := commandLine(path, []string{"one line"}, testCmdExe, winargs.ComposeCommandLine); err != nil || app != testCmdExe {
					t.Fatalf("one-line args: app %q, err %v; want cmd.exe", app, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := append([]string{path}, args...)
			if want := append(slices.Clone(tt.want), hostileArgs...); !slices.Equal(got, want) {
				t.Fatalf("argv %q\nwant %q", got, want)
			}
			// No cmd.exe: the program gets the arguments back intact by
			// the CommandLineToArgvW rules, line breaks and all.
			if app != tt.want[0] {
				t.Fatalf("CreateProcess would start %q, want %q", app, tt.want[0])
			}
			if back := winargs.Split(line); !slices.Equal(back, got) {
				t.Fatalf("the program would read %q\nwant %q", back, got)
			}
		})
	}
}

// A shim for a node script with no node anywhere says so.
func TestResolveNpmShimWithoutNode(t *testing.T) {
	disk := npmDisk{scratchDir(t)}
	disk.put(t, npmDir+`\codex.cmd`, codexShim)
	disk.put(t, npmDir+`\node_modules\@openai\codex\bin\codex.js`, "x")
	_, _, err := resolveCommand(npmDir+`\codex.cmd`, nil, disk.read, disk.isFile, func() (string, error) { return "", errors.New("node: not found") })
	if err == nil || !strings.Contains(err.Error(), "node is not on PATH") {
		t.Fatalf("err %v, want one that says node is missing", err)
	}
}

// A command line past CreateProcess's 32767 characters is refused with the
// reason, before Windows fails it with a bare "invalid parameter".
func TestCommandLineTooLong(t *testing.T) {
	_, _, err := commandLine(`C:\bin\a.exe`, []string{strings.Repeat("x", 200<<10)}, testCmdExe, winargs.ComposeCommandLine)
	if err == nil || !strings.Contains(err.Error(), "at most 32766") {
		t.Fatalf("err %v", err)
	}
}

func TestWinClean(t *testing.T) {
	for in, want := range map[string]string{
		`C:\a\\b\.\c\..\d`:          `C:\a\b\d`,
		`C:/a/b`:                    `C:\a\b`,
		`\\srv\share\x\..\y`:        `\\srv\share\y`,
		`C:\..\a`:                   `C:\a`,
		`C:\npm\\node_modules\x.js`: `C:\npm\node_modules\x.js`,
	} {
		if got := winClean(in); got != want {
			t.Errorf("winClean(%q) = %q, want %q", in, got, want)
		}
	}
}
