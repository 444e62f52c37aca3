package tokenhttp

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	for _, tt := range []struct {
		url string
		ok  bool
	}{
		{"https://api.github.com", true},
		{"https://ghe.example.com/api/v3", true},
		{"http://127.0.0.1:8080/api/v3", true},
		{"http://localhost:9/graphql", true},
		{"http://[::1]:9/graphql", true},
		{"http://ghe.example.com/api/v3", false},
		{"http://10.0.0.1/api/v3", false},
		{"ftp://ghe.example.com", false},
		{"file:///etc/passwd", false},
	} {
		u, _ := url.Parse(tt.url)
		if err := CheckURL(u); (err == nil) != tt.ok {
			t.Errorf("CheckURL(%s) = %v, want ok %v", tt.url, err, tt.ok)
		}
	}
	if _, err := Client("http://ghe.example.com/api/v3", "Authorization", "x", nil); err == nil || !strings.Contains(err.Error(), "https") {
		t.Fatalf("Client over plain http to a host: %v", err)
	}
}

// The token goes to the API's host alone; a body past MaxBody is an error.
func TestTokenForTheHostAlone(t *testing.T) {
	maxBody = 1 << 10
	t.Cleanup(func() { maxBody = MaxBody })
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("Authorization"))
		if r.URL.Path == "/big" {
			w.Write(make([]byte, maxBody+10))
		}
	}))
	defer srv.Close()
	hc, err := Client(srv.URL, "Authorization", "Bearer t", nil)
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	for _, u := range []string{srv.URL + "/a", other + "/b"} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		req.Header.Set("Authorization", "Bearer t") // as a library might
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if len(got) != 2 || got[0] != "Bearer t" || got[1] != "" {
		t.Fatalf("Authorization seen = %q, want the token on the API's host only", got)
	}
	resp, err := hc.Get(srv.URL + "/big")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); !errors.Is(err, ErrTooBig) {
		t.Fatalf("a body past the limit: %v", err)
	}
}
