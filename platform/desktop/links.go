package desktop

import (
	"log/slog"
	"sync"

	"github.com/buildstation/buildstation/internal/deeplink"
)

// Links the OS hands the running program as events rather than arguments
// (macOS: an Apple Event, kAEGetURL). They go through the parser
// `buildstation open` uses; what arrives before the tray is up waits.
var urlEvents struct {
	mu      sync.Mutex
	show    func(sessionID string) // "" shows the dashboard
	log     *slog.Logger
	pending []string
}

// ReceiveLinks starts handing links to show (on the OS's event thread:
// show must hand over to the UI thread itself): a session's ID, or "" for
// the dashboard.
func ReceiveLinks(log *slog.Logger, show func(sessionID string)) {
	urlEvents.mu.Lock()
	urlEvents.show, urlEvents.log = show, log
	pending := urlEvents.pending
	urlEvents.pending = nil
	urlEvents.mu.Unlock()
	for _, id := range pending {
		if log != nil {
			log.Info("a link arrived before the tray was ready", "session", id)
		}
		show(id)
	}
	installURLHandler()
}

// deliverURL takes one link from the OS.
func deliverURL(link string) {
	id, ok := deeplink.ParseDeepLink(link)
	urlEvents.mu.Lock()
	show, log := urlEvents.show, urlEvents.log
	if ok && show == nil {
		urlEvents.pending = append(urlEvents.pending, id)
	}
	urlEvents.mu.Unlock()
	switch {
	case !ok && log != nil:
		log.Warn("ignored a link that is not a Build Station link", "link", link)
	case ok && show != nil:
		if log != nil {
			log.Info("a link arrived", "link", link, "session", id)
		}
		show(id)
	}
}
