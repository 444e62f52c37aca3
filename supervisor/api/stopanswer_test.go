package api_test

import (
	"net/http"
	"testing"
)

// POST /v1/station/stop answers 202 with {"message": …}, the sentence the
// client hands back to the person who asked.
func TestStopAnswerCarriesTheMessage(t *testing.T) {
	_, e := newBoardEnv(t)
	code, body := e.do(t, http.MethodPost, "/v1/station/stop", stationToken, "")
	const want = "the station stops now: no session needs time to finish"
	if code != http.StatusAccepted || body != `{"message":"`+want+`"}`+"\n" {
		t.Fatalf("POST /v1/station/stop: %d %q", code, body)
	}
	if msg, err := e.client(stationToken).RequestStop(t.Context()); err != nil || msg != want {
		t.Fatalf("RequestStop = %q, %v; want %q", msg, err, want)
	}
}
