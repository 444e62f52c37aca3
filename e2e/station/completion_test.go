//go:build linux

package station_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/e2e/rig"
)

// Completion works in a real bash: the script buildstation prints, sourced,
// completes subcommands and flag values by asking the binary itself.
func TestBashCompletion(t *testing.T) {
	t.Parallel()
	const lib = "/usr/share/bash-completion/bash_completion"
	if _, err := os.Stat(lib); err != nil {
		t.Skip("SKIP: bash-completion is not installed (make deps installs it)")
	}
	complete := func(line string) []string {
		script := `source ` + lib + `
source <(buildstation completion bash)
COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<<"$COMP_LINE"
[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
compopt() { :; } # only a completion bash calls may use it
__start_buildstation
printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command("bash", "-c", script, "bash", line)
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(rig.Bin())+":"+os.Getenv("PATH"), "BUILDSTATION_HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("complete %q: %v\n%s", line, err, out)
		}
		return strings.Fields(string(out))
	}
	if got := complete("buildstation ta"); strings.Join(got, " ") != "task" {
		t.Errorf("buildstation ta<TAB> = %q, want task", got)
	}
	if got := complete("buildstation task re"); strings.Join(got, " ") != "requeue" {
		t.Errorf("buildstation task re<TAB> = %q, want requeue", got)
	}
	if got := complete("buildstation task ls --state bl"); strings.Join(got, " ") != "blocked" {
		t.Errorf("--state bl<TAB> = %q, want blocked", got)
	}
	if got := complete("buildstation task add --ti"); strings.Join(got, " ") != "--title" {
		t.Errorf("--ti<TAB> = %q, want --title", got)
	}
}
