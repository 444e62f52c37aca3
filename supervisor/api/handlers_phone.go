package api

import (
	"context"
	"net/http"

	"github.com/buildstation/buildstation/supervisor/apitype"
)

// Phone is the station's phone area, what the phone settings' routes
// serve (*station.Phone).
type Phone interface {
	// PhoneSettings is config.toml's [phone] table; nil: none.
	PhoneSettings(ctx context.Context) map[string]any
	// SetPhoneSettings writes the [phone] table to config.toml
	// (validated like the file, applied without a restart).
	SetPhoneSettings(ctx context.Context, t map[string]any) (map[string]any, error)
}

// phoneRoutes are the dashboard's Phone settings. Saving is a person's
// act alone: where a permission's Allow and Deny are sent is no agent's
// to change.
func (s *Server) phoneRoutes() {
	s.person("GET /v1/phone/settings", s.getPhoneSettings)
	s.personOnly("POST /v1/phone/settings", verb(s, nothing, http.StatusOK, always("phone settings not saved; check config.toml"), s.setPhoneSettings))
}

func (s *Server) getPhoneSettings(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, apitype.PhoneSettings{Phone: s.areas.Phone.PhoneSettings(r.Context())})
}

// setPhoneSettings takes {"phone": {"service": "ntfy", …}} and answers the
// table as saved; a table that does not check is a 400 naming the key.
func (s *Server) setPhoneSettings(r *http.Request, _ string, req apitype.PhoneSettings) (apitype.PhoneSettings, error) {
	t, err := s.areas.Phone.SetPhoneSettings(r.Context(), req.Phone)
	return apitype.PhoneSettings{Phone: t}, err
}
