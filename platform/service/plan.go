package service

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"
)

// Config is what the generated files say; everything an installer asks the
// OS for (paths, user) is gathered into it first, so generation is pure.
type Config struct {
	Exe      string // absolute path of the buildstation binary
	Home     string // the station's home, passed to the daemon as --home
	HomeFlag bool   // the user gave --home: the tray gets it too
	UserHome string // the user's home folder (~)
	UID      int    // macOS: launchctl's gui/<uid> domain
	Path     string // PATH for the station and its agents (unix): see CapturePath
	User     string // Windows: the installing account (DOMAIN\user)
	// GUIExe is the Windows GUI-subsystem face of the program
	// (buildstationw.exe beside buildstation.exe): what the logon task,
	// the Run key and the link handler start, so no console window opens.
	// Empty: Exe.
	GUIExe string
	// Tray says this build has a tray (cgo). Without one no tray login
	// item or link handler is written: they would start a program that
	// can only say it has no tray.
	Tray bool
	// System asks Windows for the opt-in SCM service (service install
	// --system) instead of the per-user logon task.
	System bool
	// StopGrace is the station's stop_grace: a stopping station lets its
	// sessions finish for that long, so its service manager must wait
	// longer (StopWait) before it kills it.
	StopGrace time.Duration
	// AskStop asks the running station to drain and waits up to wait for
	// it to end, saying what happened: the logon task's stop, which can
	// only terminate the station, runs it first. nil: nobody to ask.
	AskStop func(wait time.Duration) string
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

// Undoable is a Step that can take back what it did. Prepare looks at the
// OS before the step runs and returns how to restore that state (nil: the
// step changes nothing that needs restoring).
type Undoable interface {
	Step
	Prepare(sys System) (undo Step, err error)
}

// ApplyAll runs an install: every step in order, one line each; if a step
// fails, the steps before it are undone in reverse order, each undo
// reported, so a failed install leaves the OS as it found it (never half
// an install: a login item without its station, say).
func (p Plan) ApplyAll(sys System, w io.Writer) error {
	var undos []Step
	for _, s := range p {
		var undo Step
		if u, ok := s.(Undoable); ok {
			var err error
			if undo, err = u.Prepare(sys); err != nil {
				return p.rollback(sys, w, undos, err)
			}
		}
		msg, err := s.Apply(sys)
		if msg != "" {
			fmt.Fprintln(w, msg)
		}
		if err != nil {
			return p.rollback(sys, w, undos, err)
		}
		if undo != nil {
			undos = append(undos, undo)
		}
	}
	return nil
}

func (Plan) rollback(sys System, w io.Writer, undos []Step, cause error) error {
	fmt.Fprintf(w, "failed: %v\n", cause)
	if len(undos) == 0 {
		fmt.Fprintln(w, "nothing was changed")
		return cause
	}
	fmt.Fprintln(w, "rolling back what this install changed:")
	failed := 0
	for i := len(undos) - 1; i >= 0; i-- {
		msg, err := undos[i].Apply(sys)
		if err != nil {
			failed++
			fmt.Fprintf(w, "  could not undo: %v\n", err)
			continue
		}
		if msg != "" {
			fmt.Fprintln(w, "  "+msg)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w (and %d change(s) could not be rolled back: see above)", cause, failed)
	}
	return fmt.Errorf("%w (rolled back: nothing is installed)", cause)
}

// restoreFile puts a file back as it was before an install wrote it.
type restoreFile struct {
	Path, What string
	Old        []byte // nil: it was not there
	Mode       fs.FileMode
}

func (s restoreFile) Apply(sys System) (string, error) {
	if s.Old == nil {
		return RemoveFile{Path: s.Path, What: s.What}.Apply(sys)
	}
	if err := sys.WriteFile(s.Path, s.Old, s.Mode); err != nil {
		return "", fmt.Errorf("restore %s %s: %w", s.What, s.Path, err)
	}
	return fmt.Sprintf("%s %s: restored", s.What, s.Path), nil
}

func (s restoreFile) Describe() string { return fmt.Sprintf("would restore %s %s", s.What, s.Path) }

// WriteFile writes a file unless it already holds Data.
type WriteFile struct {
	Path string
	Mode fs.FileMode
	Data []byte
	What string // "station LaunchAgent", shown to the user
	Text string // what a dry run shows, when Data is not UTF-8 text
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

func (s WriteFile) Prepare(sys System) (Step, error) {
	old, err := sys.ReadFile(s.Path)
	switch {
	case err == nil && bytes.Equal(old, s.Data):
		return nil, nil
	case err == nil:
		return restoreFile{Path: s.Path, What: s.What, Old: old, Mode: s.Mode}, nil
	}
	return restoreFile{Path: s.Path, What: s.What}, nil
}

func (s WriteFile) Describe() string {
	text := string(s.Data)
	if s.Text != "" {
		text = s.Text
	}
	return fmt.Sprintf("would write %s %s (mode %04o):\n%s", s.What, s.Path, s.Mode.Perm(), indent(text))
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
	Note     string   // why a tolerated failure is fine, shown after it
	Undo     []string // takes back what Argv did, when an install rolls back
}

func (s Run) Prepare(System) (Step, error) {
	if len(s.Undo) == 0 {
		return nil, nil
	}
	return Run{Argv: s.Undo, Tolerate: true}, nil
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
	// OwnsKey: the key is ours alone (the URL scheme's); if this value
	// was not there before, a rollback deletes the whole key.
	OwnsKey bool
}

func (s RegSet) Prepare(sys System) (Step, error) {
	old, ok, err := sys.RegGet(s.Key, s.Name)
	switch {
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", regName(s.Key, s.Name), err)
	case ok && old == s.Value:
		return nil, nil
	case ok:
		return RegSet{Key: s.Key, Name: s.Name, Value: old}, nil
	case s.OwnsKey:
		return RegDeleteTree{Key: s.Key}, nil
	}
	return RegDeleteValue{Key: s.Key, Name: s.Name}, nil
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

func (s CreateService) Prepare(sys System) (Step, error) {
	ok, err := sys.ServiceExists(s.Service.Name)
	if err != nil || ok {
		return nil, nil // Apply reports it; an existing service is not ours to delete
	}
	return DeleteService{Name: s.Service.Name}, nil
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

// Note is a line of the plan that changes nothing.
type Note struct{ Text string }

func (s Note) Apply(System) (string, error) { return s.Text, nil }
func (s Note) Describe() string             { return s.Text }

// noTray says why a build without a tray installs no tray login item.
var noTray = Note{Text: "no tray login item or link handler: this build has no tray (built without cgo)"}

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
	// Enabled says whether the station's autostart is enabled (`service
	// stop` disables it); known is false when the OS's answer is unreadable.
	Enabled(c Config, sys System) (enabled, known bool)
	// Installed says whether this OS's autostart for c's home is
	// installed, so the tray asks it to start the station (Start) rather
	// than starting a second, unsupervised one of its own.
	Installed(c Config, sys System) bool
}

// fileHolds reports whether the file at path holds marker.
func fileHolds(sys System, path, marker string) bool {
	b, err := sys.ReadFile(path)
	return err == nil && strings.Contains(string(b), marker)
}
