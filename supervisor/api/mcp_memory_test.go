package api_test

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/api/apitest"
)

// A loop of initialize calls with one session token costs the station no
// memory that lasts: 20,000 of them once grew it by ~390 MB, kept for
// hours.
func TestMCPInitializeFloodKeepsNoMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("20,000 requests")
	}
	e := newStation(t)
	srv := api.NewServer(apitest.Areas(e.st), stationToken, nil)
	h := srv.RequireSession(api.NewMCPHandler(apitest.Areas(e.st), nil))
	initialize := func() {
		req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", strings.NewReader(initializeBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+e.tok("tok-s1"))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("initialize: %d %s", rec.Code, rec.Body)
		}
	}
	for range 100 { // warm caches and pools
		initialize()
	}
	before := heap()
	goroutines := runtime.NumGoroutine()
	const calls = 20000
	for range calls {
		initialize()
	}
	after := heap()
	grew := int64(after) - int64(before)
	t.Logf("heap %d MB -> %d MB after %d initialize calls; goroutines %d -> %d", before>>20, after>>20, calls, goroutines, runtime.NumGoroutine())
	if grew > 16<<20 {
		t.Errorf("heap grew by %d MB over %d initialize calls; want it bounded (< 16 MB)", grew>>20, calls)
	}
	if g := runtime.NumGoroutine(); g > goroutines+50 {
		t.Errorf("goroutines %d -> %d: the calls left work running", goroutines, g)
	}
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
