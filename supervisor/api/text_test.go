package api_test

import (
	"net/http"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
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
	if tk, err := e.st.Tasks.Task(t.Context(), "t3"); err != nil || tk.Title != "a\uFFFDb" || tk.Body != "x\uFFFD" {
		t.Errorf("the task added = %+v, %v; want its NULs as U+FFFD", tk, err)
	}
	if tk := e.env.WaitTask(t, "t1", supervisor.TaskBlocked); tk.Reason != "agent: stuck\uFFFDhere" {
		t.Errorf("t1 blocked for %q, want the reason with its NUL as U+FFFD", tk.Reason)
	}
}
