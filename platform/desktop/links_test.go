package desktop

import (
	"slices"
	"sync"
	"testing"
)

// Links the OS hands over as events (macOS kAEGetURL) go through the
// parser `buildstation open` uses; those that come before the tray is up
// wait for it, and anything that is not a Build Station link is dropped.
func TestURLEventsWaitForTheTray(t *testing.T) {
	urlEvents.mu.Lock()
	urlEvents.show, urlEvents.log, urlEvents.pending = nil, nil, nil
	urlEvents.mu.Unlock()

	deliverURL("buildstation://session/t3.1") // the link that launched the app
	deliverURL("https://example.com/session/x")
	deliverURL("buildstation://session/../etc")

	var mu sync.Mutex
	var shown []string
	ReceiveLinks(nil, func(id string) { mu.Lock(); shown = append(shown, id); mu.Unlock() })
	deliverURL("buildstation://dashboard")
	deliverURL("BUILDSTATION://session/t4")

	mu.Lock()
	defer mu.Unlock()
	if want := []string{"t3.1", "", "t4"}; !slices.Equal(shown, want) {
		t.Errorf("shown %q, want %q", shown, want)
	}
}
