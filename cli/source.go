package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
)

func (e *env) sourceCmd() *cobra.Command {
	var host string
	login := &cobra.Command{Use: "login github|linear", Short: "Store a GitHub or Linear token in the OS keychain",
		Long:      "Store the token [[sources]] of that kind use in the OS keychain (Keychain,\nCredential Manager, Secret Service): paste it when asked, or pipe it in.\nTokens never live in config.toml; where there is no keychain (a headless\nLinux box), set token_env in the source's table to read it from a variable.\nA token is kept for one host: --host names a GitHub Enterprise Server (the\nhost of the source's api_url), so it never receives the github.com token.\nRestart the station to use a new token.",
		Example:   "  buildstation source login github\n  buildstation source login github --host ghe.example.com\n  echo \"$LINEAR_API_KEY\" | buildstation source login linear",
		Args:      positional(1, 1),
		ValidArgs: []string{"github", "linear"},
		RunE:      func(_ *cobra.Command, args []string) error { return e.sourceLogin(args[0], host) }}
	login.Flags().StringVar(&host, "host", "", "the API host the token is for, as in the source's api_url (default: the service's own)")
	var asJSON bool
	ls := &cobra.Command{Use: "ls", Short: "Each source's state: its project, its last poll, its problem if any",
		Example: "  buildstation source ls\n  buildstation source ls --json | jq '.[] | select(.ok | not)'",
		Args:    positional(0, 0),
		RunE:    func(*cobra.Command, []string) error { return e.sourceLs(asJSON) }}
	ls.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return group("source", "Connect GitHub repositories and Linear teams whose issues become tasks",
		"Sources are the [[sources]] tables of config.toml: the open issues of a\nrepository or a team that carry a label become tasks, and the station\nwrites its progress back to them (docs/sources.md).",
		"  buildstation source login github\n  buildstation source ls", login, ls)
}

func (e *env) sourceLogin(kind, host string) error {
	if kind != "github" && kind != "linear" {
		return usagef("%q is not a kind of source; use github or linear", kind)
	}
	if strings.ContainsAny(host, "/ \t") {
		return usagef("%q is not a host; give it as in the source's api_url, like --host ghe.example.com", host)
	}
	if e.deps.Keychain == nil {
		return errors.New("this build has no keychain access; set token_env in the source's [[sources]] table instead")
	}
	tok, err := e.readToken(kind)
	if err != nil {
		return err
	}
	if err := e.deps.Keychain(kind, host, tok); err != nil {
		return err
	}
	for_ := kind
	if host != "" {
		for_ += " on " + host
	}
	fmt.Fprintf(e.stdout, "stored the %s token in the keychain; restart the station (buildstation service stop, then start) to use it\n", for_)
	return nil
}

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

func (e *env) sourceLs(asJSON bool) error {
	c, err := e.client()
	if err != nil {
		return err
	}
	st, err := c.Status(e.ctx)
	if err != nil {
		return err
	}
	if asJSON {
		list := st.Sources
		if list == nil {
			list = []supervisor.SourceState{}
		}
		return printJSON(e.stdout, list)
	}
	if len(st.Sources) == 0 {
		fmt.Fprintln(e.stdout, "no sources: add a [[sources]] table to config.toml (docs/sources.md)")
		return nil
	}
	t := newTable(e.stdout, "SOURCE", "PROJECT", "TASKS", "OWED", "CHECKED", "STATE")
	var problems []string
	for _, s := range st.Sources {
		checked := "never"
		if !s.Checked.IsZero() {
			checked = s.Checked.Local().Format(time.TimeOnly)
		}
		state := "ok"
		switch {
		case s.Problem != "":
			state = "see below"
			problems = append(problems, textsafe.Line(s.Problem))
		case !s.OK:
			state = "not polled yet"
		}
		t.row(s.Name, s.Project, fmt.Sprint(s.Tasks), fmt.Sprint(s.Owed), checked, state)
		if s.Note != "" {
			problems = append(problems, textsafe.Line(s.Name+": "+s.Note))
		}
	}
	if err := t.flush(); err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(e.stdout, p)
	}
	return nil
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
