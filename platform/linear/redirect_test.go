package linear

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/buildstation/buildstation/supervisor/config"
)

// A redirect to another host does not take the key with it (#33 item 11).
func TestNoKeyOnRedirectToAnotherHost(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"data":{"teams":{"nodes":[]}}}`))
	}))
	t.Cleanup(other.Close)
	elsewhere := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere+"/graphql", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(api.Close)
	c, err := New(config.Source{Kind: "linear", Team: "ENG", Label: "agent", State: "Todo", APIURL: api.URL + "/graphql"}, "lin_secret", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Poll(context.Background())
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("the redirect was not followed; the test proves nothing")
	}
	for _, a := range seen {
		if strings.Contains(a, "lin_secret") {
			t.Fatalf("the other host was sent the key: %q", seen)
		}
	}
}
