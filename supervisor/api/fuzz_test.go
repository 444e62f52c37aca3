package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// FuzzRequestBodies sends arbitrary bodies to every route that decodes one,
// through a real server on loopback: whatever arrives, the answer is a
// client error or success with a JSON body, never a 500 or a hang.
func FuzzRequestBodies(f *testing.F) {
	for _, seed := range []string{
		`{"project":"web","title":"x","body":"y"}`, `{"note":"retry"}`, `{"text":"hi"}`, `{"reason":"r"}`,
		`{"summary":"s"}`, `{"message":"m"}`, `{"status":"working"}`, `{"verdict":"approve","notes":"n"}`,
		`{"hook_event_name":"Stop","extra":[1,2,{}]}`, `{`, `[]`, `null`, `{"title":1}`, `{"a":"b"}{"c":"d"}`,
		"\xff\xfe", `{"title":"` + string(bytes.Repeat([]byte("x"), 5000)) + `"}`,
	} {
		for route := range 12 {
			f.Add(uint8(route), []byte(seed))
		}
	}
	e := newStation(f)
	c := serve(f, apitest.Areas(e.st))
	sess := e.tok("tok-s1")
	routes := []struct{ path, token string }{
		{"/v1/tasks", stationToken}, {"/v1/tasks/t1/requeue", stationToken}, {"/v1/tasks/t1/cancel", stationToken},
		{"/v1/sessions/t1.1/send", stationToken}, {"/v1/sessions/t1.1/block", stationToken}, {"/v1/projects/web/pause", stationToken},
		{"/v1/agent/complete", sess}, {"/v1/agent/block", sess}, {"/v1/agent/progress", sess},
		{"/v1/agent/status", sess}, {"/v1/agent/hook", sess}, {"/v1/agent/review", sess},
	}
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		r := routes[int(route)%len(routes)]
		req, err := http.NewRequest(http.MethodPost, c.BaseURL+r.path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+r.token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 500 {
			t.Fatalf("POST %s %q: %d %s", r.path, body, resp.StatusCode, out)
		}
		if len(out) > 0 && !json.Valid(out) {
			t.Fatalf("POST %s: answer is not JSON: %q", r.path, out)
		}
	})
}
