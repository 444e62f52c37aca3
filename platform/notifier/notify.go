package notifier

import (
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"

	"github.com/buildstation/buildstation/internal/deeplink"
	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Options configure a Notifier.
type Options struct {
	AppName string // "Build Station"
	Icon    []byte // PNG shown beside the text
	// Open shows a session's console in this tray; called from the
	// notifier's own goroutine when a notification is clicked (Linux).
	Open func(sessionID string)
	// Decide answers what a session asks when a notice's button is
	// pressed (Linux): verb "allow", "deny" or "answer" (with its text),
	// on the request the notice showed (its id; the station refuses a
	// decision on a request that changed since). Only a person presses
	// it; nil leaves the buttons out.
	Decide func(sessionID, request, verb, answer string)
	// Land carries out a finished notice's button (Linux) on the task
	// its session finished: verb "diff" shows the task's diff, "merge"
	// merges its work. nil leaves the buttons out.
	Land func(sessionID, taskID, verb string)
	// LinkKey is the key of a decision link (deeplink.DecisionKey with the
	// station's token), for the buttons that are links (Windows toasts);
	// nil, or "", leaves those buttons out.
	LinkKey func(deeplink.Link) string
	// Self is this program's path, which a click runs as
	// "Self open <id>" where the OS starts a program (macOS, Windows).
	Self string
	// Log, if set, hears what the notifier cannot do on this desktop.
	Log *slog.Logger
}

// Scheme is the URL scheme a Windows toast click opens:
// buildstation://session/<id>.
const Scheme = "buildstation"

// SessionURL is what a click on a notice for session id opens.
func SessionURL(id string) string { return Scheme + "://session/" + url.PathEscape(id) }

// iconFile writes the icon where the OS's notifier can read it by path.
func iconFile(png []byte) string {
	if len(png) == 0 {
		return ""
	}
	// The user's own cache folder only: in the shared temp folder another
	// local user could plant a symlink at the icon's path, and writing the
	// icon would overwrite whatever file of ours it names. No cache
	// folder: no icon.
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	path := filepath.Join(dir, "BuildStation", "notify-icon.png")
	if old, err := os.ReadFile(path); err == nil && string(old) == string(png) {
		return path
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return ""
	}
	if err := os.WriteFile(path, png, 0o600); err != nil {
		return ""
	}
	return path
}

var errClosed = fmt.Errorf("notifier closed")

// AppUserModelID is the app's identity for Windows toasts: no spaces, in the
// Company.Product form Windows expects of a registered AUMID, and the same
// as the tray's Fyne app id.
const AppUserModelID = "dev.buildstation.app"

// DecideWith is an Options.Decide that runs "self --home HOME session VERB
// ID --request REQUEST [-- ANSWER]": the CLI, with the station's token, on
// behalf of the person who pressed the button.
func DecideWith(self, home string, log *slog.Logger) func(sessionID, request, verb, answer string) {
	return func(id, request, verb, answer string) {
		if self == "" {
			return
		}
		args := []string{"--home", home, "session", verb, id}
		if request != "" {
			args = append(args, "--request", request)
		}
		if verb == "answer" {
			args = append(args, "--", answer)
		}
		cmd := childproc.Command(self, args...)
		go func() {
			if out, err := cmd.CombinedOutput(); err != nil && log != nil {
				log.Warn("a notification's button did not decide", "session", id, "decision", verb, "err", err, "output", string(out))
			}
		}()
	}
}

// keyActions gives each of m's buttons the key of its decision link on
// the session sessionID and the request m shows (a Merge: on the task m
// finished), from key (nil: none, so no decision's button is shown).
func keyActions(m *message, sessionID string, key func(deeplink.Link) string) {
	for i := range m.Actions {
		m.Actions[i].Key = ""
		if key == nil {
			continue
		}
		if m.Actions[i].ID == ActionMerge && m.Task != "" {
			m.Actions[i].Key = key(deeplink.Link{SessionID: sessionID, Verb: deeplink.VerbMerge, Task: m.Task})
			continue
		}
		verb, answer, ok := deeplink.ParseDecision(m.Actions[i].ID)
		if ok {
			m.Actions[i].Key = key(deeplink.Link{SessionID: sessionID, Verb: verb, Answer: answer, Request: m.Request})
		}
	}
}

// LinkKeyOf is an Options.LinkKey with the token of the station of home,
// read when a notice is shown (the station writes it at start).
func LinkKeyOf(home string) func(deeplink.Link) string {
	return func(l deeplink.Link) string {
		tok, err := apitype.ReadToken(home)
		if err != nil {
			return ""
		}
		return deeplink.DecisionKey(tok, l)
	}
}
