package cli

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
)

// readToken reads one line: without echo from a terminal, as is from a
// pipe.
func (e *env) readToken(kind string) (string, error) {
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(e.stderr, "paste the %s token (it is not shown): ", kind)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(e.stderr)
		if err != nil {
			return "", fmt.Errorf("read the token: %w", err)
		}
		return check(strings.TrimSpace(string(b)))
	}
	line, err := bufio.NewReader(e.stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", usagef("no token on stdin; paste it when asked, or pipe it in: echo \"$TOKEN\" | buildstation source login %s", kind)
	}
	return check(strings.TrimSpace(line))
}

func check(tok string) (string, error) {
	if tok == "" || strings.ContainsAny(tok, " \t") {
		return "", usagef("that is not a token (empty, or with spaces); paste the token alone")
	}
	return tok, nil
}

// sourceLines are status's lines for sources with a problem.
func sourceLines(list []supervisor.SourceState) []string {
	var out []string
	for _, s := range list {
		if s.Problem != "" {
			out = append(out, "source: "+textsafe.Line(s.Problem))
		}
	}
	return out
}
