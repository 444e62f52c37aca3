//go:build darwin

package notifier

import (
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/gen2brain/beeep"

	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/supervisor"
)

// Notifier shows notices through the notification center when the process
// runs from the .app (the bundle's identity; a click or the Open button
// calls Options.Open, a permission request's Allow once or Deny calls
// Options.Decide), else through terminal-notifier when it is installed
// (its -group lets a notice be withdrawn, its -open hands the
// buildstation:// link to the app bundle's URL scheme), else as a plain
// notification (no click).
type Notifier struct {
	o        Options
	icon     string
	backend  darwinBackend
	why      string // the choice in one sentence (Choice)
	notifier string // terminal-notifier's path, or ""
}

// authWait is how long New waits for macOS's answer to the authorization
// request: a refusal (an ad-hoc-signed app) comes at once; a person
// answering the prompt takes longer, and the notification center is kept.
const authWait = 3 * time.Second

// Choice says how notices are shown here, and why, in one sentence (for
// status and the tray menu).
func (n *Notifier) Choice() string { return n.why }

// New picks the backend. For terminal-notifier it checks the version:
// before 3.0.0 a click does nothing on macOS 13 and later, which the log
// says once.
func New(o Options) (*Notifier, error) {
	n := &Notifier{o: o, icon: iconFile(o.Icon)}
	f := facts(o)
	path := f.TerminalNotifier
	n.backend, n.why = chooseDarwin(f)
	if o.Log != nil {
		o.Log.Info("desktop notifications", "via", n.backend.String(), "bundle", f.BundleID, "why", n.why)
	}
	switch n.backend {
	case backendNative, backendPlain:
		return n, nil
	}
	n.notifier = path
	// -help exits non-zero on some versions; the text is what counts.
	out, _ := childproc.Command(path, "-help").CombinedOutput()
	first, _, _ := strings.Cut(string(out), "\n")
	if v, ok := terminalNotifierVersion(first); ok && !clicksWork(v) && o.Log != nil {
		o.Log.Warn("terminal-notifier is older than 3.0.0: notifications show, but a click on one opens nothing on macOS 13 and later; run: brew upgrade terminal-notifier",
			"path", path, "version", fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]))
	}
	return n, nil
}

// Notify shows one notice.
func (n *Notifier) Notify(nt supervisor.Notice) error {
	m := newMessage(nt)
	if n.backend == backendNative {
		if nt.SessionID != "" {
			native.showing(nt.SessionID, m)
		}
		nativePost(m)
		return nil
	}
	if n.notifier == "" {
		if err := beeep.Notify(m.Title, m.Body, n.icon); err != nil {
			return fmt.Errorf("show a notification: %w", err)
		}
		return nil
	}
	if out, err := childproc.Command(n.notifier, terminalNotifierArgs(m, n.o.AppName, n.icon)...).CombinedOutput(); err != nil {
		return fmt.Errorf("show a notification with terminal-notifier: %v: %s", err, out)
	}
	return nil
}

// Withdraw removes the notice of nt's group, if the notification center or
// terminal-notifier showed it.
func (n *Notifier) Withdraw(nt supervisor.Notice) error {
	if n.backend == backendNative {
		nativeWithdraw(Group(nt))
		return nil
	}
	if n.notifier == "" {
		return nil
	}
	if out, err := childproc.Command(n.notifier, "-remove", Group(nt)).CombinedOutput(); err != nil {
		return fmt.Errorf("withdraw a notification with terminal-notifier: %v: %s", err, out)
	}
	return nil
}

// Close does nothing.
func (n *Notifier) Close() error { return nil }

// facts gathers what the notifier is chosen by; from the app bundle it
// asks macOS for authorization (once per process) and waits for the answer.
func facts(o Options) darwinFacts {
	path, _ := exec.LookPath("terminal-notifier")
	f := darwinFacts{NativeBuilt: nativeBuilt, BundleID: bundleID(), TerminalNotifier: path}
	if f.NativeBuilt && f.BundleID != "" {
		nativeStart(o)
		f.Auth, f.AuthErr = native.wait(authWait)
	}
	return f
}

// Warning is what status says of this process's notices when they cannot
// open their session or cannot show at all: the choice New makes, made at
// the station's start (the authorization is asked then, once), "" when
// the notification center shows them.
func Warning() string {
	if b, why := chooseDarwin(facts(Options{})); b != backendNative {
		return "macOS notices: " + why
	}
	return ""
}
