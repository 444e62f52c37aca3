//go:build windows

package notifier

import (
	"fmt"

	"golang.org/x/sys/windows/registry"

	"github.com/buildstation/buildstation/supervisor"
)

// Notifier shows toasts whose click opens buildstation://session/<id>,
// which Windows hands to "buildstation open <url>" through the
// per-user URL scheme registered by New.
//
// The toast's XML is ours (toastXML, encoding/xml) and goes to the Windows
// Runtime through COM only (toast_windows.go), tagged so Withdraw can take
// it back. go-toast is not used: its Notification.Push fills a
// text/template (a "]]>" in a body ends its CDATA) and, when the COM call
// fails, falls back to a PowerShell script that holds the XML in an
// expandable here-string, where "$(…)" from an agent would run. Without COM
// there is no toast, and the error says so.
type Notifier struct {
	o    Options
	icon string
}

// New registers the buildstation:// scheme and the toast's app identity for
// this user (no admin rights needed) and returns the notifier.
func New(o Options) (*Notifier, error) {
	if o.Self != "" {
		// Without a handler a toast still shows; a click opens nothing.
		if err := registerScheme(o.Self); err != nil && o.Log != nil {
			o.Log.Warn("notification clicks will open nothing", "err", err)
		}
	}
	n := &Notifier{o: o, icon: iconFile(o.Icon)}
	// The app's identity for toasts, under HKCU (no admin rights): the
	// name the Action Center shows, and the icon.
	k, _, err := registry.CreateKey(registry.CURRENT_USER, `Software\Classes\AppUserModelId\`+AppUserModelID, registry.SET_VALUE)
	if err != nil {
		return nil, fmt.Errorf("register the app for toasts: %w", err)
	}
	defer k.Close()
	_ = k.SetStringValue("DisplayName", o.AppName)
	if n.icon != "" {
		_ = k.SetStringValue("IconUri", n.icon)
	}
	return n, nil
}

// registerScheme makes buildstation:// links reach "self open" when
// nothing handles them yet. An existing handler is left alone: `service
// install` writes one that carries --home, which this one would lose.
func registerScheme(self string) error {
	line, err := linkHandlerCommand(self)
	if err != nil {
		return err
	}
	base := `Software\Classes\` + Scheme
	if k, err := registry.OpenKey(registry.CURRENT_USER, base+`\shell\open\command`, registry.QUERY_VALUE); err == nil {
		v, _, err := k.GetStringValue("")
		k.Close()
		if err == nil && v != "" {
			return nil
		}
	}
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
	return cmd.SetStringValue("", line)
}

// Notify shows one toast.
func (n *Notifier) Notify(nt supervisor.Notice) error {
	m := newMessage(nt)
	keyActions(&m, nt.SessionID, n.o.LinkKey)
	doc, err := toastXML(m, n.icon)
	if err != nil {
		return err
	}
	if err := showToast(AppUserModelID, doc, toastTag(nt)); err != nil {
		return fmt.Errorf("show a notification: %w", err)
	}
	return nil
}

// Withdraw removes the notice's toast from the screen and the Action
// Center: what it announced is over.
func (n *Notifier) Withdraw(nt supervisor.Notice) error {
	if err := removeToast(AppUserModelID, toastTag(nt)); err != nil {
		return fmt.Errorf("withdraw a notification: %w", err)
	}
	return nil
}

// Close does nothing: a toast needs no connection.
func (n *Notifier) Close() error { return nil }
