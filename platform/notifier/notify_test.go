package notifier

import (
	"testing"

	"github.com/buildstation/buildstation/internal/deeplink"
)

// The link a toast carries is one `buildstation open` understands.
func TestSessionURLParsesBack(t *testing.T) {
	if id, ok := deeplink.ParseDeepLink(SessionURL("t3.1")); !ok || id != "t3.1" {
		t.Fatalf("ParseDeepLink(SessionURL(t3.1)) = %q, %v", id, ok)
	}
}
