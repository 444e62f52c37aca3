package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// slowStation answers task listings only when released, so a test can hold
// requests in flight.
type slowStation struct {
	taskArea // the real station's (apitest.Board), one verb wrapped
	entered  chan struct{}
	release  chan struct{}
}

func (s *slowStation) Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	s.entered <- struct{}{}
	<-s.release
	return s.taskArea.Tasks(ctx, f)
}

// Past the in-flight bound a request is refused at once with 503 and
// Retry-After, instead of queueing without limit until clients time out;
// the requests in flight finish, and the station answers again after.
func TestInFlightBound(t *testing.T) {
	board := apitest.Board(t, "web")
	st := &slowStation{taskArea: board.Tasks, entered: make(chan struct{}, 8), release: make(chan struct{})}
	a := apitest.Areas(board)
	a.Tasks = st
	srv := api.NewServer(a, stationToken, nil)
	srv.SetInFlight(4, 50*time.Millisecond)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()

	get := func() (*http.Response, error) {
		req, _ := http.NewRequest("GET", hs.URL+"/v1/tasks", nil)
		req.Header.Set("Authorization", "Bearer "+stationToken)
		return hs.Client().Do(req)
	}
	var wg sync.WaitGroup
	codes := make(chan int, 4)
	for range 4 {
		wg.Go(func() {
			resp, err := get()
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		})
	}
	for range 4 {
		select {
		case <-st.entered:
		case <-time.After(time.Minute):
			t.Fatal("the first 4 requests did not reach the station")
		}
	}

	resp, err := get()
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("5th request: %d, Retry-After %q; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	// A stream is not a request that finishes: it is not refused.
	req, _ := http.NewRequest("GET", hs.URL+"/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+stationToken)
	ctx, cancel := context.WithCancel(context.Background())
	sresp, err := hs.Client().Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if sresp.StatusCode != http.StatusOK {
		t.Errorf("event stream while busy: %d, want 200", sresp.StatusCode)
	}
	cancel()
	sresp.Body.Close()

	close(st.release)
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusOK {
			t.Errorf("a request in flight got %d", c)
		}
	}
	resp, err = get()
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("after the burst: %d, want 200", resp.StatusCode)
	}
}
