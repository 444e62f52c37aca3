package api_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// TestEveryRouteIsGuarded reads every route from the package's files (each
// area registers its own, s.person or s.agent), so a route added later is
// covered without editing this test, and checks each one's refusals: no
// token, a wrong token, the wrong kind of token, a foreign Host and a
// browser Origin — each with an otherwise good request.
func TestEveryRouteIsGuarded(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	re := regexp.MustCompile(`\bs\.(person|personOnly|agent)\("(GET|POST|DELETE) (/v1/[^"]+)"`)
	matches := re.FindAllStringSubmatch(string(src), -1)
	if len(matches) < 30 {
		t.Fatalf("found only %d routes in the package's files; did their shape change?", len(matches))
	}
	e := newStation(t)
	c := serve(t, apitest.Areas(e.st))
	before := e.snapshot(t)
	for _, m := range matches {
		kind, method := m[1], m[2]
		path := strings.NewReplacer("{id}", "t1.1", "{name}", "web").Replace(m[3])
		good, wrongKind := stationToken, e.tok("tok-s1")
		if kind == "agent" {
			good, wrongKind = e.tok("tok-s1"), stationToken
		}
		for _, tt := range []struct {
			name   string
			token  string
			host   string
			origin string
			want   int
		}{
			{"no token", "", "", "", http.StatusUnauthorized},
			{"wrong token", "nope", "", "", http.StatusUnauthorized},
			{"wrong kind of token", wrongKind, "", "", http.StatusForbidden},
			{"foreign Host", good, "evil.example:80", "", http.StatusForbidden},
			{"rebinding Host on our port", good, "evil.example:" + portOf(c.BaseURL), "", http.StatusForbidden},
			{"browser Origin", good, "", "http://evil.example", http.StatusForbidden},
			{"null Origin", good, "", "null", http.StatusForbidden},
		} {
			req, _ := http.NewRequest(method, c.BaseURL+path, strings.NewReader("{}"))
			if tt.token != "" {
				req.Header.Set("Authorization", "Bearer "+tt.token)
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("%s %s with %s: %d, want %d", method, path, tt.name, resp.StatusCode, tt.want)
			}
		}
	}
	if after := e.snapshot(t); after != before {
		t.Errorf("a refused request reached the station:\n%s\nwas\n%s", after, before)
	}
}

func portOf(base string) string { return base[strings.LastIndexByte(base, ':')+1:] }
