package agentcli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/agent"
)

// Known are the built-in agents whose CLIs Installed looks for: the agent
// registry's (supervisor/agent), so a new built-in profile is looked for too.
var Known = agent.ProfileNames(true)

// Finder is a supervisor.AgentFinder over this machine's PATH and the
// agents' own settings files.
type Finder struct {
	// LookPath finds a program on PATH (exec.LookPath).
	LookPath func(string) (string, error)
	// Version runs a program's --version and answers its first line.
	Version func(ctx context.Context, path string) string
	// UserHome is the folder Claude Code keeps .claude.json in ("": the
	// user's home).
	UserHome string
}

// New is the Finder of this machine.
func New() Finder {
	return Finder{LookPath: exec.LookPath, Version: version}
}

var _ supervisor.AgentFinder = Finder{}

// Installed lists the known agents found, each with its --version.
func (f Finder) Installed(ctx context.Context) []supervisor.AgentCLI {
	var out []supervisor.AgentCLI
	for _, name := range Known {
		p, err := f.LookPath(name)
		if err != nil {
			continue
		}
		out = append(out, supervisor.AgentCLI{Name: name, Path: p, Version: f.Version(ctx, p)})
	}
	return out
}

// Find is where program is: a path as it is (when it exists), a bare name
// on PATH.
func (f Finder) Find(program string) (string, error) {
	if strings.ContainsAny(program, `/\`) {
		if _, err := os.Stat(program); err != nil {
			return "", fmt.Errorf("the agent program %s does not exist", program)
		}
		return program, nil
	}
	p, err := f.LookPath(program)
	if err != nil {
		return "", fmt.Errorf("the agent program %q is not installed here (not on the station's PATH)", program)
	}
	return p, nil
}

// Steps are the one-time steps profile still needs in folder.
func (f Finder) Steps(profile, folder string) []string {
	if profile != "claude" {
		return nil
	}
	home := f.UserHome
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return nil
		}
		home = h
	}
	return claudeSteps(filepath.Join(home, ".claude.json"), folder)
}

// claudeState is the part of ~/.claude.json that says whether Claude Code
// has been set up and which folders it trusts.
type claudeState struct {
	Onboarded bool `json:"hasCompletedOnboarding"`
	Projects  map[string]struct {
		Trusted bool `json:"hasTrustDialogAccepted"`
	} `json:"projects"`
}

// claudeSteps reads Claude Code's state file: no file, or onboarding not
// done, means it was never run here (it would try to log in, and exit);
// a folder that neither it nor a parent is trusted means its first session
// waits on the trust question with "No, exit" selected.
func claudeSteps(file, folder string) []string {
	b, err := os.ReadFile(file)
	var st claudeState
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	if errors.Is(err, os.ErrNotExist) || (err == nil && !st.Onboarded) {
		return []string{"Claude Code has not been set up on this machine yet: run claude once in a terminal and log in, then answer Yes when it asks whether to trust " + folder}
	}
	if err != nil {
		return nil // unreadable: nothing known to say
	}
	if trusted(st, folder) {
		return nil
	}
	return []string{"Claude Code does not trust " + folder + " yet, so its first session there would wait on a question: run claude once in that folder (cd " + quote(folder) + " && claude) and answer Yes, I trust this folder"}
}

// trusted: Claude Code inherits trust from a parent folder.
func trusted(st claudeState, folder string) bool {
	for dir := filepath.Clean(folder); ; dir = filepath.Dir(dir) {
		for _, key := range []string{dir, filepath.ToSlash(dir)} {
			if p, ok := st.Projects[key]; ok && p.Trusted {
				return true
			}
		}
		if filepath.Dir(dir) == dir {
			return false
		}
	}
}

func quote(s string) string {
	if strings.ContainsAny(s, " '\"$`\\") {
		return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
	}
	return s
}

// version is the first line of path --version, within a few seconds (a
// CLI that wants a login may never answer).
func version(ctx context.Context, path string) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := childproc.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(line)
}
