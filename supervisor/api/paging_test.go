package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// A list asked for without a limit is one page all the same, with the
// cursor of the next in a header; the client follows it to the end. The
// real station over a real board pages here, so the SQL's order and cursor
// are what is checked.
func TestUnpagedListIsCapped(t *testing.T) {
	st, e := newBoardEnv(t)
	for range 1100 {
		if _, err := st.Tasks.AddTask(t.Context(), supervisor.NewTask{Project: "web", Title: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	req, _ := http.NewRequest("GET", e.srv.URL+"/v1/tasks", nil)
	req.Header.Set("Authorization", "Bearer "+stationToken)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page []supervisor.Task
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil || len(page) != 1000 {
		t.Fatalf("unpaged list: %v, %d tasks; want a page of 1000", err, len(page))
	}
	if next := resp.Header.Get(apitype.HeaderNextAfter); next != page[999].ID {
		t.Errorf("next-page cursor %q, want %s", next, page[999].ID)
	}
	all, err := e.client(stationToken).Tasks(t.Context(), supervisor.TaskFilter{})
	if err != nil || len(all) != 1100 {
		t.Fatalf("Tasks followed the pages to %d tasks, %v; want 1100", len(all), err)
	}
}
