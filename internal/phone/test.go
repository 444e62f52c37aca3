package phone

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/config"
)

// TestNote is the notice `notify test` and the dashboard's Test button
// send.
func TestNote(at time.Time) Note {
	n := Note{Kind: "station", Title: "Build Station: a test notice",
		Text: "Notices from this station reach you here. Sent at " + at.Format("15:04:05") + "."}
	n.Priority, n.Tags = 3, []string{"white_check_mark"}
	return n
}

// SendTest sends TestNote through the service p names and returns what
// it answered.
func SendTest(ctx context.Context, p config.Phone, service func(config.Phone) (Service, error)) (apitype.PhoneTestResult, error) {
	if !p.Enabled() {
		return apitype.PhoneTestResult{}, fmt.Errorf("no [phone] table: add one to config.toml (docs/phone.md), or fill in the dashboard's Phone settings")
	}
	svc, err := service(p)
	if err != nil {
		return apitype.PhoneTestResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, sendWait)
	defer cancel()
	answer, err := svc.Send(ctx, TestNote(time.Now()))
	if err != nil {
		return apitype.PhoneTestResult{Service: svc.Name()}, fmt.Errorf("%s did not take the test notice: %w", svc.Name(), err)
	}
	return apitype.PhoneTestResult{Service: svc.Name(), Answer: answer}, nil
}

// TestHandler serves POST /v1/phone/test: the [phone] table in force, or
// the one the request carries (checked like config.toml's), sent one
// real notice. A table that does not check is a 400; a service that
// does not take the notice a 502 with what it answered.
func TestHandler(current func() config.Phone, service func(config.Phone) (Service, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req apitype.PhoneTest
		body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		if len(body) > 0 {
			if err := json.Unmarshal(body, &req); err != nil {
				writeJSON(w, http.StatusBadRequest, apitype.ErrorBody{Error: "the request is not a phone test's JSON: " + err.Error()})
				return
			}
		}
		p := current()
		if req.Phone != nil {
			var err error
			if p, err = config.CheckPhone(req.Phone); err != nil {
				writeJSON(w, http.StatusBadRequest, apitype.ErrorBody{Error: err.Error()})
				return
			}
		}
		if !p.Enabled() {
			_, err := SendTest(r.Context(), p, service)
			writeJSON(w, http.StatusBadRequest, apitype.ErrorBody{Error: err.Error()})
			return
		}
		res, err := SendTest(r.Context(), p, service)
		if err != nil {
			writeJSON(w, http.StatusBadGateway, apitype.ErrorBody{Error: err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, res)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
