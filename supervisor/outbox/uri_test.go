package outbox

import (
	"net/url"
	"testing"
)

// A Windows drive path opens: SQLite reads file://C:/… as a host named C:
// ("invalid uri authority: C:"), so the station could not start on Windows.
func TestFileURIOfAWindowsPath(t *testing.T) {
	q := url.Values{}
	q.Set("_txlock", "immediate")
	for in, want := range map[string]string{
		"C:/Users/a b/AppData/Roaming/BuildStation/outbox.db": "file:///C:/Users/a%20b/AppData/Roaming/BuildStation/outbox.db?_txlock=immediate",
		"/home/a/.config/buildstation/outbox.db":              "file:///home/a/.config/buildstation/outbox.db?_txlock=immediate",
	} {
		if got := fileURI(in, q); got != want {
			t.Errorf("fileURI(%q) = %q, want %q", in, got, want)
		}
	}
}
