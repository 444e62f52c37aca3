package phone

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/internal/testsupport/standin/ntfyapi"
	"github.com/buildstation/buildstation/supervisor/config"
)

// The dashboard's Test button sends its form's table: the station checks
// it like config.toml's before it sends anything, then sends one real
// notice and returns what the service answered.
func TestTestHandler(t *testing.T) {
	ntfy := ntfyapi.New(t)
	h := TestHandler(func() config.Phone { return config.Phone{} }, func(p config.Phone) (Service, error) { return NewService(p, "") })
	post := func(body string) (int, string) {
		w := httptest.NewRecorder()
		h(w, httptest.NewRequest(http.MethodPost, "/v1/phone/test", bytes.NewBufferString(body)))
		return w.Code, w.Body.String()
	}
	if code, body := post(""); code != http.StatusBadRequest || !strings.Contains(body, "no [phone] table") {
		t.Errorf("no table: %d %s", code, body)
	}
	if code, body := post(`{"phone":{"service":"ntfy","url":"` + ntfy.URL + `","topic":"a b"}}`); code != http.StatusBadRequest || !strings.Contains(body, "phone.topic: \\\"a b\\\" is not an ntfy topic") {
		t.Errorf("a bad topic: %d %s", code, body)
	}
	code, body := post(`{"phone":{"service":"ntfy","url":"` + ntfy.URL + `","topic":"dash","quiet":"23:00-07:00"}}`)
	var res struct{ Service, Answer string }
	if code != http.StatusOK || json.Unmarshal([]byte(body), &res) != nil || res.Service != "ntfy" || !strings.Contains(res.Answer, "on topic dash") {
		t.Errorf("a good table: %d %s", code, body)
	}
	if ms := ntfy.Messages("dash"); len(ms) != 1 || ms[0].Title != "Build Station: a test notice" {
		t.Errorf("sent %+v", ms)
	}
	ntfy.Fail(1, http.StatusUnauthorized)
	if code, body := post(`{"phone":{"service":"ntfy","url":"` + ntfy.URL + `","topic":"dash"}}`); code != http.StatusBadGateway || !strings.Contains(body, "ntfy did not take the test notice: the ntfy server answered 401") {
		t.Errorf("a refusing server: %d %s", code, body)
	}
}
