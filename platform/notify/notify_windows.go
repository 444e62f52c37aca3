//go:build windows

package notify

import (
	"fmt"

	"git.sr.ht/~jackmordaunt/go-toast"
	"golang.org/x/sys/windows/registry"

	"github.com/buildstation/buildstation/supervisor"
)

// Notifier shows toasts whose click opens buildstation://session/<id>,
// which Windows hands to "buildstation open <url>" through the
// per-user URL scheme registered by New.
type Notifier struct {
	o    Options
	icon string
}

// New registers the buildstation:// scheme for this user (no admin
// rights needed) and returns the notifier.
func New(o Options) (*Notifier, error) {
	if o.Self != "" {
		if err := registerScheme(o.Self); err != nil {
			return nil, err
		}
	}
	return &Notifier{o: o, icon: iconFile(o.Icon)}, nil
}

func registerScheme(self string) error {
	base := `Software\Classes\` + Scheme
	k, _, err := registry.CreateKey(registry.CURRENT_USER, base, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("register the %s:// scheme: %w", Scheme, err)
	}
	defer k.Close()
	_ = k.SetStringValue("", "URL:Build Station")
	_ = k.SetStringValue("URL Protocol", "")
	cmd, _, err := registry.CreateKey(registry.CURRENT_USER, base+`\shell\open\command`, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("register the %s:// scheme: %w", Scheme, err)
	}
	defer cmd.Close()
	return cmd.SetStringValue("", fmt.Sprintf(`"%s" open "%%1"`, self))
}

// Notify shows one toast.
func (n *Notifier) Notify(nt supervisor.Notice) error {
	title, body := text(nt)
	t := toast.Notification{AppID: n.o.AppName, Title: title, Body: body, Icon: n.icon}
	if nt.SessionID != "" {
		t.ActivationType = toast.Protocol
		t.ActivationArguments = SessionURL(nt.SessionID)
		t.Actions = []toast.Action{{Type: toast.Protocol, Content: "Open console", Arguments: SessionURL(nt.SessionID)}}
	}
	if err := t.Push(); err != nil {
		return fmt.Errorf("show a notification: %w", err)
	}
	return nil
}

// Close does nothing: a toast needs no connection.
func (n *Notifier) Close() error { return nil }
