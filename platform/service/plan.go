package service

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// Config is what the generated files say; everything an installer asks the
// OS for (paths, user) is gathered into it first, so generation is pure.
type Config struct {
	Exe      string // absolute path of the buildstation binary
	Home     string // the station's home, passed to the daemon as --home
	HomeFlag bool   // the user gave --home: the tray gets it too
	UserHome string // the user's home folder (~)
	UID      int    // macOS: launchctl's gui/<uid> domain
	Path     string // PATH at install, for agents the service starts (unix)
	User     string // Windows: the account the service runs as (DOMAIN\user)
}

// Names every OS shares.
const (
	Name        = "BuildStation"
	DisplayName = "Build Station"
	Description = "Supervises AI coding-agent sessions (buildstation daemon)."
)

// Plan is an ordered list of steps. Install and Uninstall plans are
// idempotent: applying one twice changes nothing the second time.
type Plan []Step

// Step is one change to the OS or one command. Apply does it through sys
// and says what happened; Describe says what it would do (--dry-run).
type Step interface {
	Apply(sys System) (string, error)
	Describe() string
}

// WinService is the Windows service a plan creates.
type WinService struct {
	Name, DisplayName, Description string
	Exe                            string
	Args                           []string
	User                           string // DOMAIN\user; the password is asked at install
}

// System is the OS as an installer sees it: files, commands, the Windows
// registry (HKEY_CURRENT_USER only) and services. Off Windows the registry
// and service methods return ErrUnsupported.
type System interface {
	ReadFile(path string) ([]byte, error)
	WriteFile(path string, data []byte, mode fs.FileMode) error // makes parent folders
	Remove(path string) error
	Run(argv []string) (output string, err error)

	RegGet(key, name string) (value string, ok bool, err error)
	RegSet(key, name, value string) error
	RegDeleteTree(key string) (existed bool, err error)
	RegDeleteValue(key, name string) (existed bool, err error)

	ServiceExists(name string) (bool, error)
	CreateService(s WinService) error
	DeleteService(name string) error
}

// ErrUnsupported is a System method this OS does not have.
var ErrUnsupported = errors.New("not supported on this OS")

// Apply runs every step in order and writes one line per step to w. With
// dryRun it only describes them. It stops at the first failure.
func (p Plan) Apply(sys System, dryRun bool, w io.Writer) error {
	for _, s := range p {
		if dryRun {
			fmt.Fprintln(w, s.Describe())
			continue
		}
		msg, err := s.Apply(sys)
		if msg != "" {
			fmt.Fprintln(w, msg)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// WriteFile writes a file unless it already holds Data.
type WriteFile struct {
	Path string
	Mode fs.FileMode
	Data []byte
	What string // "station LaunchAgent", shown to the user
}

func (s WriteFile) Apply(sys System) (string, error) {
	if old, err := sys.ReadFile(s.Path); err == nil && bytes.Equal(old, s.Data) {
		return fmt.Sprintf("%s %s: already up to date", s.What, s.Path), nil
	}
	if err := sys.WriteFile(s.Path, s.Data, s.Mode); err != nil {
		return "", fmt.Errorf("write %s %s: %w", s.What, s.Path, err)
	}
	return fmt.Sprintf("%s %s: written", s.What, s.Path), nil
}

func (s WriteFile) Describe() string {
	return fmt.Sprintf("would write %s %s (mode %04o):\n%s", s.What, s.Path, s.Mode.Perm(), indent(string(s.Data)))
}

// RemoveFile removes a file if it is there.
type RemoveFile struct {
	Path string
	What string
}

func (s RemoveFile) Apply(sys System) (string, error) {
	err := sys.Remove(s.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("%s %s: not there, nothing to remove", s.What, s.Path), nil
	case err != nil:
		return "", fmt.Errorf("remove %s %s: %w", s.What, s.Path, err)
	}
	return fmt.Sprintf("%s %s: removed", s.What, s.Path), nil
}

func (s RemoveFile) Describe() string { return fmt.Sprintf("would remove %s %s", s.What, s.Path) }

// Run runs a command. With Tolerate its failure is reported and the plan
// goes on (stopping a service that is not running, say).
type Run struct {
	Argv     []string
	Tolerate bool
	Note     string // why a tolerated failure is fine, shown after it
}

func (s Run) Apply(sys System) (string, error) {
	out, err := sys.Run(s.Argv)
	out = strings.TrimSpace(out)
	cmd := shellJoin(s.Argv)
	switch {
	case err != nil && s.Tolerate && s.Note != "":
		return fmt.Sprintf("ran %s: %v (%s)", cmd, oneLine(err, out), s.Note), nil
	case err != nil && s.Tolerate:
		return fmt.Sprintf("ran %s: %v", cmd, oneLine(err, out)), nil
	case err != nil:
		return "", fmt.Errorf("%s: %v", cmd, oneLine(err, out))
	case out != "":
		return fmt.Sprintf("ran %s: %s", cmd, out), nil
	}
	return "ran " + cmd, nil
}

func (s Run) Describe() string { return "would run " + shellJoin(s.Argv) }

// RegSet sets one value under HKEY_CURRENT_USER unless it already holds it.
// An empty Name is the key's default value.
type RegSet struct {
	Key, Name, Value string
}

func (s RegSet) Apply(sys System) (string, error) {
	if old, ok, err := sys.RegGet(s.Key, s.Name); err == nil && ok && old == s.Value {
		return fmt.Sprintf("%s: already set", regName(s.Key, s.Name)), nil
	}
	if err := sys.RegSet(s.Key, s.Name, s.Value); err != nil {
		return "", fmt.Errorf("set %s: %w", regName(s.Key, s.Name), err)
	}
	return fmt.Sprintf("%s: set to %s", regName(s.Key, s.Name), s.Value), nil
}

func (s RegSet) Describe() string {
	return fmt.Sprintf("would set %s = %s", regName(s.Key, s.Name), s.Value)
}

// RegDeleteValue deletes one value under HKEY_CURRENT_USER if it is there.
type RegDeleteValue struct{ Key, Name string }

func (s RegDeleteValue) Apply(sys System) (string, error) {
	existed, err := sys.RegDeleteValue(s.Key, s.Name)
	if err != nil {
		return "", fmt.Errorf("delete %s: %w", regName(s.Key, s.Name), err)
	}
	if !existed {
		return fmt.Sprintf("%s: not there, nothing to delete", regName(s.Key, s.Name)), nil
	}
	return fmt.Sprintf("%s: deleted", regName(s.Key, s.Name)), nil
}

func (s RegDeleteValue) Describe() string { return "would delete " + regName(s.Key, s.Name) }

// RegDeleteTree deletes a key under HKEY_CURRENT_USER and all below it.
type RegDeleteTree struct{ Key string }

func (s RegDeleteTree) Apply(sys System) (string, error) {
	existed, err := sys.RegDeleteTree(s.Key)
	if err != nil {
		return "", fmt.Errorf(`delete HKCU\%s: %w`, s.Key, err)
	}
	if !existed {
		return fmt.Sprintf(`HKCU\%s: not there, nothing to delete`, s.Key), nil
	}
	return fmt.Sprintf(`HKCU\%s: deleted`, s.Key), nil
}

func (s RegDeleteTree) Describe() string {
	return fmt.Sprintf(`would delete HKCU\%s and all below it`, s.Key)
}

// CreateService creates a Windows service unless one of that name exists.
type CreateService struct{ Service WinService }

func (s CreateService) Apply(sys System) (string, error) {
	ok, err := sys.ServiceExists(s.Service.Name)
	if err != nil {
		return "", fmt.Errorf("look up service %s: %w", s.Service.Name, err)
	}
	if ok {
		return fmt.Sprintf("service %s: already installed (uninstall first to change it)", s.Service.Name), nil
	}
	if err := sys.CreateService(s.Service); err != nil {
		return "", fmt.Errorf("create service %s: %w", s.Service.Name, err)
	}
	return fmt.Sprintf("service %s: created, runs as %s, starts automatically", s.Service.Name, s.Service.User), nil
}

func (s CreateService) Describe() string {
	v := s.Service
	return fmt.Sprintf("would create Windows service %s (%q), start automatic, restart on failure, as %s (password asked at install):\n%s",
		v.Name, v.DisplayName, v.User, indent(winCommandLine(append([]string{v.Exe}, v.Args...))))
}

// DeleteService deletes a Windows service if it exists.
type DeleteService struct{ Name string }

func (s DeleteService) Apply(sys System) (string, error) {
	ok, err := sys.ServiceExists(s.Name)
	if err != nil {
		return "", fmt.Errorf("look up service %s: %w", s.Name, err)
	}
	if !ok {
		return fmt.Sprintf("service %s: not installed, nothing to delete", s.Name), nil
	}
	if err := sys.DeleteService(s.Name); err != nil {
		return "", fmt.Errorf("delete service %s: %w", s.Name, err)
	}
	return fmt.Sprintf("service %s: deleted", s.Name), nil
}

func (s DeleteService) Describe() string { return "would delete Windows service " + s.Name }

func regName(key, name string) string {
	if name == "" {
		name = "(Default)"
	}
	return fmt.Sprintf(`HKCU\%s [%s]`, key, name)
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return "    " + strings.Join(lines, "\n    ")
}

func oneLine(err error, out string) string {
	if out == "" {
		return err.Error()
	}
	return err.Error() + ": " + strings.Join(strings.Fields(out), " ")
}

// shellJoin shows argv as a POSIX shell would read it.
func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,") == "" {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// FileState reports whether a file is there (status).
type FileState struct{ Path, What string }

func (s FileState) Apply(sys System) (string, error) {
	if _, err := sys.ReadFile(s.Path); err != nil {
		return fmt.Sprintf("%s %s: not installed", s.What, s.Path), nil
	}
	return fmt.Sprintf("%s %s: installed", s.What, s.Path), nil
}

func (s FileState) Describe() string { return fmt.Sprintf("would check %s %s", s.What, s.Path) }

// RegState reports whether a registry value is set (status).
type RegState struct{ Key, Name, What string }

func (s RegState) Apply(sys System) (string, error) {
	v, ok, err := sys.RegGet(s.Key, s.Name)
	if err != nil || !ok {
		return fmt.Sprintf("%s %s: not set", s.What, regName(s.Key, s.Name)), nil
	}
	return fmt.Sprintf("%s %s: %s", s.What, regName(s.Key, s.Name), v), nil
}

func (s RegState) Describe() string {
	return fmt.Sprintf("would check %s %s", s.What, regName(s.Key, s.Name))
}

// Installer makes the plans of one OS.
type Installer interface {
	Install(Config) (Plan, error)
	Uninstall(Config) Plan
	Start(Config) Plan
	Stop(Config) Plan
	Status(Config) Plan
}
