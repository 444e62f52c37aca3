package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// The tray reads only the newest done tasks: order=newest lists newest
// first through the client (the real board's SQL orders them), and an
// unknown order is one sentence.
func TestTasksNewestFirst(t *testing.T) {
	st, e := newBoardEnv(t)
	for _, title := range []string{"first", "second"} {
		if _, err := st.Tasks.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := e.client(stationToken).Tasks(context.Background(), supervisor.TaskFilter{Newest: true, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != "t2" {
		t.Fatalf("newest task %v, want t2", got)
	}
	code, body := e.do(t, http.MethodGet, "/v1/tasks?order=sideways", stationToken, "")
	if code != http.StatusBadRequest || !strings.Contains(body, "use oldest (the default) or newest") {
		t.Fatalf("order=sideways: %d %s", code, body)
	}
}
