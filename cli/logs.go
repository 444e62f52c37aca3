package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor/client"
)

// Transcripts are rendered on a terminal of the size sessions get (the
// pty backend's default), so lines wrap where the agent saw them wrap.
const (
	renderCols = 120
	renderRows = 40
)

// followEvery is how often logs -f asks for more: the station has no push
// feed of a transcript file (attach streams the live console, but replays
// and takes input), and a person reading a log does not need it sooner.
var followEvery = 500 * time.Millisecond

// logsOptions are `logs`'s.
type logsOptions struct {
	*env
	ID          string
	Follow, Raw bool
}

func newLogsCmd(e *env, runF func(*logsOptions) error) *cobra.Command {
	o := &logsOptions{env: e}
	c := &cobra.Command{
		Use:   "logs ID",
		Short: "Print a session's transcript (ended sessions too), like docker logs",
		Long: `Print what a session showed: its transcript rendered through a terminal
emulator to plain text, as its screen read (a TUI's redraws resolved). ID is
a session id (t2.1, t2.1.review) or a task id, which picks that task's
latest session, ended or live. A transcript over 8 MiB is rendered from
its last 8 MiB, after a line saying how much was skipped. --raw prints the
bytes as the agent wrote them, escape sequences and all, every one; -f
follows a live session until it ends (new output as it comes, escape
sequences removed unless --raw).`,
		Example: `  buildstation logs t2             # what task t2's latest session showed
  buildstation logs t2.1 --raw > t2.1.typescript
  buildstation logs -f t3          # follow a live session`,
		Args:              positional(1, 1),
		ValidArgsFunction: e.completeTasks,
		RunE:              runE(o, firstArg(&o.ID), runF, logsRun),
	}
	c.Flags().BoolVarP(&o.Follow, "follow", "f", false, "keep printing new output until the session ends")
	c.Flags().BoolVar(&o.Raw, "raw", false, "the raw bytes, escape sequences and all")
	return c
}

// logsMemory is the heap logs asks the Go runtime to stay within: a
// transcript arrives in chunks of a few megabytes, and without a limit the
// garbage collector lets the heap grow to twice what is live.
const logsMemory = 40 << 20

func logsRun(o *logsOptions) error {
	e, id, follow, raw := o.env, o.ID, o.Follow, o.Raw
	if !raw && e.deps.Render == nil {
		return handLogs(o)
	}
	c, err := e.client()
	if err != nil {
		return err
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(logsMemory))
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	sink := func(_ int64, p []byte) error { _, err := out.Write(p); return err }
	var r Renderer
	from := int64(0)
	if !raw {
		r = e.deps.Render(out, renderCols, renderRows)
		defer r.Close()
		sink = renderTail(r, out, id)
		from = -logsTail
	}
	t, err := streamTranscript(e.ctx, c, id, from, sink)
	if err == nil && r != nil {
		err = r.Finish()
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil || !follow {
		return err
	}
	// Follow by the session's id, not the task's: a review session that
	// starts later is another log.
	offset, sid, live := t.From+int64(len(t.Data)), t.SessionID, t.Live
	for live {
		select {
		case <-e.ctx.Done():
			return nil
		case <-time.After(followEvery):
		}
		t, err := streamTranscript(e.ctx, c, sid, offset, func(_ int64, more []byte) error {
			if !raw {
				more = []byte(textsafe.Printable(string(more)))
			}
			_, err := e.stdout.Write(more)
			return err
		})
		if err != nil {
			return err
		}
		offset, live = t.From+int64(len(t.Data)), t.Live
	}
	return nil
}

// handLogs runs a rendered logs in the app (Roles.Logs): this build does
// not link the terminal emulator (the light command line; see Deps.Render).
func handLogs(o *logsOptions) error {
	if o.deps.Roles.Logs == nil {
		return errors.New(`this build cannot render a transcript; use "buildstation logs --raw", or build the full binary with make build`)
	}
	args := []string{o.ID}
	if o.Follow {
		args = append(args, "--follow")
	}
	if code := o.deps.Roles.Logs(o.ctx, o.home, args); code != 0 {
		return &exitCode{code}
	}
	return nil
}

// renderTail is the sink that renders a transcript's tail through r: when
// the tail is not the whole transcript, rendering starts at its first whole
// line, after a line on out that says how much was skipped and how to get
// it (--raw).
func renderTail(r Renderer, out io.Writer, id string) func(int64, []byte) error {
	started := false
	return func(from int64, p []byte) error {
		if !started && from > 0 {
			if i := bytes.IndexByte(p, '\n'); i >= 0 {
				from, p = from+int64(i)+1, p[i+1:]
			}
			if _, err := fmt.Fprintf(out, "[… %s (%d bytes) of earlier output skipped: \"buildstation logs --raw %s\" prints all of it]\n",
				mebibytes(from), from, textsafe.Line(id)); err != nil {
				return err
			}
		}
		started = true
		return r.Write(p)
	}
}

// mebibytes is n bytes for a person.
func mebibytes(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// streamTranscript hands sink a transcript from offset (< 0: that many
// bytes back from the end) to its end, with where each chunk starts, in the
// chunks the station answers with (never the whole file at once: a
// transcript may be gigabytes); t is the last answer.
func streamTranscript(ctx context.Context, c *client.Client, id string, offset int64, sink func(int64, []byte) error) (transcriptEnd, error) {
	for {
		t, err := c.Transcript(ctx, id, offset)
		if err != nil {
			return transcriptEnd{}, err
		}
		if err := sink(t.From, t.Data); err != nil {
			return transcriptEnd{}, err
		}
		offset = t.From + int64(len(t.Data))
		if len(t.Data) == 0 || offset >= t.Size {
			return transcriptEnd{SessionID: t.SessionID, Live: t.Live, From: t.From, Data: t.Data}, nil
		}
	}
}

type transcriptEnd struct {
	SessionID string
	Live      bool
	From      int64
	Data      []byte
}

// logsTail is how much of a transcript's end logs renders. The emulator
// renders a few MB a second and a transcript may be gigabytes (past
// transcript_max, or written before it), so logs renders the last 8 MiB —
// hundreds of thousands of lines of agent output, in seconds — and says
// what it skipped; --raw prints every byte.
var logsTail int64 = 8 << 20
