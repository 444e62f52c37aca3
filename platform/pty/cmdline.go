package pty

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
)

// Windows command lines, built here without Windows calls so that they are
// tested on every OS. A Windows program parses its own command line; the
// convention (CommandLineToArgvW, MSVCRT) is what windows.ComposeCommandLine
// quotes for. Batch files are different: CreateProcess runs a .cmd or .bat
// through cmd.exe, whose own rules (%VAR% expansion, & | < > as operators)
// would let an argument such as a task title run commands. npm installs
// agents as batch shims (claude.cmd), so those lines are built for cmd.exe
// explicitly, the way Rust's std does since CVE-2024-24576.

// errBatchArg is a batch argument cmd.exe cannot receive intact.
var errBatchArg = errors.New("cannot pass a line break or NUL to a .cmd or .bat script")

// isBatch reports whether path names a batch script, which CreateProcess
// cannot start by itself.
func isBatch(path string) bool {
	ext := strings.ToLower(winExt(path))
	return ext == ".cmd" || ext == ".bat"
}

// commandLine returns what CreateProcess gets for running path with args
// (argv without argv[0]): the application to start and its command line.
// compose quotes a normal program's argv (windows.ComposeCommandLine on
// Windows). A batch script runs through cmdExe (the system's cmd.exe).
func commandLine(path string, args []string, cmdExe string, compose func([]string) string) (app, line string, err error) {
	app = path
	if !isBatch(path) {
		line = compose(append([]string{path}, args...))
	} else {
		if line, err = batchCommandLine(path, args); err != nil {
			return "", "", err
		}
		app = cmdExe
	}
	if n := len(utf16.Encode([]rune(line))); n > maxCommandLine {
		return "", "", fmt.Errorf("the command line is %d characters long; Windows takes at most %d: shorten the agent's args in config.toml", n, maxCommandLine)
	}
	return app, line, nil
}

// maxCommandLine is CreateProcess's limit on lpCommandLine, in UTF-16
// units with its terminating NUL left out.
const maxCommandLine = 32766

// batchCommandLine is `cmd.exe /e:ON /v:OFF /d /s /c ""script" args…"`: /d skips
// AutoRun commands from the registry, /v:OFF turns off !VAR! expansion,
// /e:ON keeps the extensions that the %-escape below relies on, and /s makes
// cmd.exe strip the outermost quotes of what follows /c and run the rest
// (without /s it guesses whether to, from what the line holds).
func batchCommandLine(script string, args []string) (string, error) {
	// A Windows file name holds no quote and cannot end in a backslash.
	if strings.Contains(script, `"`) || strings.HasSuffix(script, `\`) {
		return "", fmt.Errorf("batch script name %q cannot be quoted for cmd.exe", script)
	}
	var b strings.Builder
	b.WriteString(`cmd.exe /e:ON /v:OFF /d /s /c ""`)
	b.WriteString(script)
	b.WriteByte('"')
	for _, a := range args {
		if strings.ContainsAny(a, "\r\n\x00") {
			return "", fmt.Errorf("%w: %q", errBatchArg, a)
		}
		b.WriteByte(' ')
		appendBatchArg(&b, a)
	}
	b.WriteByte('"')
	return b.String(), nil
}

// batchSafe are the ASCII symbols an unquoted batch argument may hold.
const batchSafe = `#$*+-./:?@\_`

// appendBatchArg quotes a when it holds anything but letters, digits and
// batchSafe (or is empty, or ends in a backslash that would escape the
// closing quote of "%~1"). Inside: a quote is doubled, backslashes before a
// quote are doubled (the script's own argv parser still applies), and every
// % becomes %%cd:~,% — an empty substring of %cd% — so that cmd.exe never
// expands a %VAR% the argument happens to contain.
func appendBatchArg(b *strings.Builder, a string) {
	quote := a == "" || strings.HasSuffix(a, `\`)
	for _, r := range a {
		if r < 0x80 && !isAlnum(r) && !strings.ContainsRune(batchSafe, r) || r < 0x20 || r == 0x7f {
			quote = true
			break
		}
	}
	if quote {
		b.WriteByte('"')
	}
	backslashes := 0
	for _, r := range a {
		switch r {
		case '\\':
			backslashes++
			b.WriteRune(r)
			continue
		case '"':
			b.WriteString(strings.Repeat(`\`, backslashes))
			b.WriteByte('"')
		case '%':
			b.WriteString("%%cd:~,")
		}
		backslashes = 0
		b.WriteRune(r)
	}
	if quote {
		b.WriteString(strings.Repeat(`\`, backslashes))
		b.WriteByte('"')
	}
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}
