package cli

import (
	"slices"
	"strconv"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

func (e *env) sessionLs(args []string) error {
	f := e.flags("session ls")
	asJSON := f.Bool("json", false, "print a JSON array")
	if _, err := f.parse(e, args, 0, 0); err != nil {
		return err
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	list, err := c.Sessions(e.ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		if list == nil {
			list = []supervisor.SessionInfo{}
		}
		return printJSON(e.stdout, list)
	}
	// A shared board's sessions run on several stations: a column says
	// where each runs (its console is on that machine).
	shared := slices.ContainsFunc(list, func(s supervisor.SessionInfo) bool { return s.Station != "" })
	header := []string{"ID", "TASK", "STATE", "PID", "SILENT FOR", "NEXT"}
	if shared {
		header = append(header, "STATION")
	}
	t := newTable(e.stdout, header...)
	for _, s := range list {
		row := []string{s.ID, s.TaskID, s.State.String(), strconv.Itoa(s.PID), ago(s.LastOutputAt), next(s)}
		if shared {
			row = append(row, s.Station)
		}
		t.row(row...)
	}
	return t.flush()
}

// next is what the watchdog does next and when: "nudge in 1m48s".
func next(s supervisor.SessionInfo) string {
	if s.NextAction == "" || s.NextAt == nil {
		return "-"
	}
	return s.NextAction + " in " + roundDur(s.NextAt.Sub(now()))
}

func (e *env) sessionSend(args []string) error {
	pos, err := e.parse("session send", args, 2, -1)
	if err != nil {
		return err
	}
	text := strings.Join(pos[1:], " ")
	if strings.TrimSpace(text) == "" {
		return usagef("session send needs text to type")
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	return c.Send(e.ctx, pos[0], text)
}
