package update

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The request names the build's version in its User-Agent: the tray's
// daily check and version --check say which release asks.
func TestUserAgentCarriesTheVersion(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("User-Agent")
		w.Write([]byte(`{"tag_name":"v0.2.1","html_url":"https://example.invalid/r"}`))
	}))
	defer srv.Close()
	t.Setenv(EnvURL, srv.URL)
	if _, err := New("0.2.1-rc1").Latest(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ua := <-got; ua != "buildstation/0.2.1-rc1" {
		t.Fatalf("User-Agent %q, want buildstation/0.2.1-rc1", ua)
	}
}
