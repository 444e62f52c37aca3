package cli_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/cli"
	upd "github.com/buildstation/buildstation/internal/update"
)

// version --check asks a stand-in releases API on loopback: a newer release
// is said with its link, the same one is not, and one that cannot be asked
// is a one-sentence failure.
func TestVersionCheck(t *testing.T) {
	tag := "v99.0.0"
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		w.Write([]byte(`{"tag_name":"` + tag + `","html_url":"https://example.invalid/r/` + tag + `"}`))
	}))
	defer srv.Close()
	t.Setenv(upd.EnvURL, srv.URL)
	r := run(t, "", "version", "--check")
	if r.code != 0 || !strings.Contains(r.stdout, "Update available: v99.0.0 https://example.invalid/r/v99.0.0") {
		t.Fatalf("newer: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	tag = "v" + strings.SplitN(cli.Version, "-", 2)[0]
	if strings.Contains(cli.Version, "-") {
		tag = "v0.0.1" // a dev build is newer than an old release
	}
	r = run(t, "", "version", "--check")
	if r.code != 0 || strings.Contains(r.stdout, "Update available") || !strings.Contains(r.stdout, "no newer release") {
		t.Fatalf("same or older: exit %d %q", r.code, r.stdout)
	}
	status = http.StatusForbidden
	r = run(t, "", "version", "--check")
	if r.code != 1 || !strings.Contains(r.stderr, "could not check for a newer release") {
		t.Fatalf("rate-limited: exit %d %q", r.code, r.stderr)
	}
}
