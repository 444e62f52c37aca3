package source

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Each problem is one sentence that says what to do, right for where the
// token comes from (#39 item 6): a 500 is the service's error, a time-out
// is not "unreachable", and with token_env the advice names the variable.
func TestProblemWords(t *testing.T) {
	kc := config.Source{Kind: "github", Repo: "acme/web"}
	env := config.Source{Kind: "github", Repo: "acme/web", TokenEnv: "GHTOK"}
	login := "buildstation source login github"
	timeout := fmt.Errorf("%w: %w", supervisor.ErrUnreachable, context.DeadlineExceeded)
	tests := []struct {
		src       config.Source
		err       error
		want, not string
	}{
		{kc, &APIError{Status: http.StatusUnauthorized, Msg: "Bad credentials"}, "run `buildstation source login github` with a new one", "token_env"},
		{env, &APIError{Status: http.StatusUnauthorized, Msg: "Bad credentials"}, "GHTOK", "source login"},
		{env, &APIError{Status: http.StatusForbidden, Msg: "no"}, "GHTOK", "source login"},
		{env, fmt.Errorf("%w: names GHTOK, which is empty", ErrNoToken), "GHTOK", "source login"},
		{kc, &APIError{Status: http.StatusInternalServerError, Msg: "Server Error"}, "server error (HTTP 500)", "refused"},
		{kc, &APIError{Status: http.StatusBadGateway, Msg: "Bad Gateway"}, "server error (HTTP 502)", "refused"},
		{kc, timeout, "did not answer in time", "network down"},
	}
	for _, tt := range tests {
		got := Problem(tt.src.Name(), tt.err, Fix(tt.src, login))
		if !strings.Contains(got, tt.want) || strings.Contains(got, tt.not) {
			t.Errorf("Problem(%v, token_env %q) = %q\nwant it to say %q and not %q", tt.err, tt.src.TokenEnv, got, tt.want, tt.not)
		}
	}
}
