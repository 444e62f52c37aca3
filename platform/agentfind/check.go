package agentfind

import (
	"bytes"
	"fmt"
	"strings"
)

// magics are the first bytes of the programs an OS runs.
var (
	elf    = []byte{0x7f, 'E', 'L', 'F'}
	machos = [][]byte{
		{0xfe, 0xed, 0xfa, 0xce}, {0xce, 0xfa, 0xed, 0xfe}, // 32-bit
		{0xfe, 0xed, 0xfa, 0xcf}, {0xcf, 0xfa, 0xed, 0xfe}, // 64-bit
		{0xca, 0xfe, 0xba, 0xbe}, // universal
	}
)

// IsProgram says whether head (a file's first bytes) starts a program
// goos runs: a PE on Windows; ELF, Mach-O or a #! script elsewhere.
func IsProgram(goos string, head []byte) bool {
	if goos == "windows" {
		return bytes.HasPrefix(head, []byte("MZ"))
	}
	if bytes.HasPrefix(head, elf) || bytes.HasPrefix(head, []byte("#!")) {
		return true
	}
	for _, m := range machos {
		if bytes.HasPrefix(head, m) {
			return true
		}
	}
	return false
}

// Check returns an error that says how to finish the install when the
// program at p is a placeholder (no program header), nil otherwise. On
// Windows only .exe and .com files are checked: a .cmd or .bat is a
// script cmd.exe reads. name is the agent command, for the advice.
func Check(fsys FS, goos, p, name string) error {
	if goos == "windows" {
		lower := strings.ToLower(p)
		if !strings.HasSuffix(lower, ".exe") && !strings.HasSuffix(lower, ".com") {
			return nil
		}
	}
	head, err := fsys.Head(p, 64)
	if err != nil {
		return nil // the start reports what is wrong with a file it cannot read
	}
	if IsProgram(goos, head) {
		return nil
	}
	size := int64(len(head))
	if fi, err := fsys.Stat(p); err == nil {
		size = fi.Size()
	}
	return fmt.Errorf("%s is not a program but a %d-byte placeholder: %s", p, size, finish(goos, name))
}

// finish says how to finish an agent's install.
func finish(goos, name string) string {
	if strings.TrimSuffix(strings.ToLower(name), ".exe") == "claude" {
		native := "curl -fsSL https://claude.ai/install.sh | bash"
		if goos == "windows" {
			native = "irm https://claude.ai/install.ps1 | iex (PowerShell)"
		}
		return "Claude Code's install did not finish (npm ran with install scripts blocked); install it with its native installer (" + native +
			") or run npm install -g @anthropic-ai/claude-code again with scripts allowed (npm config get ignore-scripts says false), then restart the station"
	}
	return "the install of " + name + " did not finish; install it again (with npm's install scripts allowed if npm installed it), then restart the station"
}
