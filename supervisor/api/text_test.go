package api_test

import (
	"net/http"
	"testing"
)

// Text reaches the station as every board keeps it: a NUL (which
// PostgreSQL refuses) becomes U+FFFD at the API's door, so a task with one
// in its title is added and an agent's block with one in its reason blocks,
// whichever board the station uses.
func TestRequestTextNUL(t *testing.T) {
	e := newEnv(t)
	if code, body := e.do(t, "POST", "/v1/tasks", stationToken, `{"project":"web","title":"a\u0000b","body":"x\u0000"}`); code != http.StatusCreated {
		t.Fatalf("add task with a NUL = %d %s", code, body)
	}
	if code, body := e.do(t, "POST", "/v1/agent/block", "tok-s1", `{"reason":"stuck\u0000here"}`); code != http.StatusNoContent {
		t.Fatalf("block with a NUL = %d %s", code, body)
	}
	want := map[string]string{"AddTask": "a\uFFFDb", "AgentBlock": "stuck\uFFFDhere"}
	for _, c := range e.fake.Calls() {
		if w, ok := want[c.Method]; ok && c.Arg == w {
			delete(want, c.Method)
		}
	}
	if len(want) != 0 {
		t.Errorf("the station was not handed %q; calls: %+v", want, e.fake.Calls())
	}
}
