package apitype

// Environment a session gets (docs/contract.md, "Environment a session gets").
const (
	EnvURL        = "BUILDSTATION_URL"
	EnvToken      = "BUILDSTATION_TOKEN"
	EnvSessionID  = "BUILDSTATION_SESSION_ID"
	EnvPromptFile = "BUILDSTATION_PROMPT_FILE"
)

// SessionIdentity is what says a process speaks as one session. The
// station's own children (git, a gate, a setup step) speak for no
// session: a station started where these are set (inside a session, as
// its own tests run it) would hand them the session's token, which is the
// marker that ending the session kills by.
var SessionIdentity = []string{EnvURL, EnvToken, EnvSessionID, EnvPromptFile}

// SessionURLFile, in a session's folder (beside its prompt file), holds the
// address of the station that runs the session now: a station that could
// not get its predecessor's port back writes it there for the sessions it
// adopts, whose BUILDSTATION_URL still names the old one.
const SessionURLFile = "station.url"

// OriginHeader names the session a station-token request came from inside
// (the CLI finds BUILDSTATION_SESSION_ID in its environment), so operator
// actions record it.
const OriginHeader = "Buildstation-Origin-Session"

// HeaderShowsNotices on GET /v1/events says the client shows the notices it
// receives on the desktop (a tray), so the station need not.
const HeaderShowsNotices = "X-Buildstation-Shows-Notices"

// HeaderNextAfter on an answer of GET /v1/tasks says more tasks follow:
// its value is the after= cursor of the next page. The station caps every
// answer (a list asked for without a limit too), so a client that wants
// them all follows it.
const HeaderNextAfter = "Buildstation-Next-After"
