package apitype

// Environment a session gets (docs/contract.md, "Environment a session gets").
const (
	EnvURL       = "BUILDSTATION_URL"
	EnvToken     = "BUILDSTATION_TOKEN"
	EnvSessionID = "BUILDSTATION_SESSION_ID"
)

// OriginHeader names the session a station-token request came from inside
// (the CLI finds BUILDSTATION_SESSION_ID in its environment), so operator
// actions record it.
const OriginHeader = "Buildstation-Origin-Session"

// HeaderShowsNotices on GET /v1/events says the client shows the notices it
// receives on the desktop (a tray), so the station need not.
const HeaderShowsNotices = "X-Buildstation-Shows-Notices"
