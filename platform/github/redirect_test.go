package github

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/buildstation/buildstation/supervisor/config"
)

// catcher is another host: it keeps every Authorization it is sent.
type catcher struct {
	*httptest.Server
	mu   sync.Mutex
	auth []string
}

func newCatcher(t *testing.T) *catcher {
	c := &catcher{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.auth = append(c.auth, r.Header.Get("Authorization"))
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *catcher) sawToken(tok string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, a := range c.auth {
		if strings.Contains(a, tok) {
			return true
		}
	}
	return false
}

// An answer that redirects to another host does not take the token with
// it (#33 item 11): the API is on 127.0.0.1, the other host is
// "localhost" (another name, another port).
func TestNoTokenOnRedirectToAnotherHost(t *testing.T) {
	other := newCatcher(t)
	elsewhere := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(api.Close)
	c, err := New(config.Source{Kind: "github", Repo: "acme/web", Label: "agent", APIURL: api.URL + "/api/v3"}, "ghp_secret", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Poll(context.Background())
	if len(other.auth) == 0 {
		t.Fatal("the redirect was not followed; the test proves nothing")
	}
	if other.sawToken("ghp_secret") {
		t.Fatalf("the other host was sent the token: %q", other.auth)
	}
}
