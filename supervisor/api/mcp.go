package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewMCPHandler serves the station's MCP tools over streamable HTTP, for the
// agent inside a session. Mount it behind Server.RequireSession: the guard
// checks Host, Origin and the token; RequireSession lets only a session
// token through and puts that session in the request context. log may be
// nil.
//
// Every tool acts on the session of the token that made the call, never on
// anything named in its arguments.
func NewMCPHandler(a Areas, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := newMCPServer(a, log)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Logger: log,
		// Stateless: the station keeps no MCP session between requests.
		// Every call is authorized by its own session token and acts on
		// that token's session, so an MCP session would hold nothing but
		// memory: a loop of initialize calls grew the station by hundreds
		// of MB, kept for hours. Stateless, that memory is zero however
		// many a token opens, and nothing needs expiring. It also means no
		// Mcp-Session-Id can go stale: Claude Code does not re-initialize
		// after a 404 for an unknown session, so a session ID from before a
		// station restart (an adopted tmux session) or a timeout would cut
		// the agent off from its tools for good.
		Stateless:           true,
		MaxRequestBodyBytes: maxBody,
	})
	// The SDK hands a tool handler the context of the request that opened
	// the MCP session, not of the call, so the caller reaches the tools as
	// the call's TokenInfo instead. RequireBearerToken is the SDK's only way
	// to set it; with a UserID set, the SDK also refuses a call on an MCP
	// session that another token opened.
	bind := auth.RequireBearerToken(sessionTokenInfo, &auth.RequireBearerTokenOptions{
		AllowMissingExpiration: true, // a session token lasts as long as its session
	})
	return noStandaloneStream(bind(h))
}

// sessionTokenInfo names the session RequireSession resolved the token to.
// Outside RequireSession there is none, and the request is refused: fail
// closed rather than serve tools with no session.
func sessionTokenInfo(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
	sess, ok := SessionFromContext(ctx)
	if !ok {
		return nil, errNoSession
	}
	return &auth.TokenInfo{UserID: sess.ID}, nil
}

// errNoSession wraps ErrInvalidToken, which the SDK answers with 401.
var errNoSession = fmt.Errorf("a session token is required; this endpoint serves Build Station sessions only: %w", auth.ErrInvalidToken)

// noStandaloneStream answers GET with 405, which the spec allows for "no
// server-initiated stream here". The station never sends an agent anything
// unasked, and a GET stream would hang on the API's write timeout.
func noStandaloneStream(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Allow", "POST, DELETE")
			writeError(w, http.StatusMethodNotAllowed, "the station's MCP endpoint has no event stream; send JSON-RPC with POST")
			return
		}
		h.ServeHTTP(w, r)
	})
}
