//go:build linux

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// logsGoal is the most RSS `logs` may take on a transcript of any size.
const logsGoal = 64 << 20

// logsWhole is the size of the transcript `logs` renders whole: its last
// 8 MiB are what it renders of any larger one (cli's logsTail).
const logsWhole = 8

// benchLogs measures `logs` of a generated transcript of mb megabytes (the
// issue's 1 GB by default) against a running station: the CLI's peak RSS,
// under logsGoal whatever the size, against `logs --raw` of the same file
// (every byte streamed, no emulator); and how long it took, against `logs`
// of a transcript of logsWhole MB rendered whole in the same run: a
// transcript of any size costs what its last 8 MiB cost. The files go in
// the bench's scratch folder and are removed with it.
func benchLogs(t *table, mb int) error {
	home, err := newHome("logs", "")
	if err != nil {
		return err
	}
	progress("logs: writing transcripts of %d MB and %d MB", mb, logsWhole)
	if err := writeTranscript(filepath.Join(home, "logs", "t1.1.log"), int64(mb)<<20); err != nil {
		return fmt.Errorf("write the transcript: %w", err)
	}
	if err := writeTranscript(filepath.Join(home, "logs", "t2.1.log"), logsWhole<<20); err != nil {
		return fmt.Errorf("write the transcript: %w", err)
	}
	st, err := startStation(home)
	if err != nil {
		return err
	}
	defer st.stop()
	progress("logs: --raw of %d MB", mb)
	rawRSS, rawTook, err := logsRSS(home, "t1.1", "--raw")
	if err != nil {
		return err
	}
	progress("logs: rendering %d MB and %d MB through the emulator", mb, logsWhole)
	wholeRSS, wholeTook, err := logsRSS(home, "t2.1")
	if err != nil {
		return err
	}
	rss, took, err := logsRSS(home, "t1.1")
	if err != nil {
		return err
	}
	t.add(row{figure: fmt.Sprintf("`logs` of a %d MB transcript, peak RSS", mb), ours: mib(float64(rss) / 1024),
		baseline: mib(float64(rawRSS)/1024) + " (--raw)", ratio: ratio(float64(rss), float64(rawRSS)),
		target: "< " + mib(logsGoal/1024), met: metString(rss < logsGoal),
		note: fmt.Sprintf("the CLI's maxrss (getrusage of the real process), output to /dev/null; --raw streamed all %d MB in %s; %d MB rendered whole: %s; a generated transcript of agent-like output: coloured lines, progress redraws with \\r, lines that wrap", mb, rawTook.Round(time.Second), logsWhole, mib(float64(wholeRSS)/1024))})
	t.add(row{figure: fmt.Sprintf("`logs` of a %d MB transcript, time", mb), ours: took.Round(100 * time.Millisecond).String(),
		baseline: fmt.Sprintf("%s (%d MB whole)", wholeTook.Round(100*time.Millisecond), logsWhole), ratio: ratio(took.Seconds(), wholeTook.Seconds()),
		target: fmt.Sprintf("<= 2× the %d MB", logsWhole), met: metString(took <= 2*wholeTook),
		note: fmt.Sprintf("logs renders the last %d MiB of a longer transcript, after a line saying what it skipped (--raw has every byte)", logsWhole)})
	return nil
}

// logsRSS runs `logs` with args on home's station, output thrown away,
// and returns the CLI's peak RSS in bytes and how long it ran.
func logsRSS(home string, args ...string) (int64, time.Duration, error) {
	c := exec.Command(bin, append([]string{"--home", home, "logs"}, args...)...)
	c.Env = env(home)
	var errb tailBuffer
	c.Stderr = &errb
	t0 := time.Now()
	if err := c.Run(); err != nil {
		return 0, 0, fmt.Errorf("logs %v: %v: %s", args, err, errb.String())
	}
	ru, _ := c.ProcessState.SysUsage().(*syscall.Rusage)
	if ru == nil {
		return 0, 0, fmt.Errorf("logs %v: no resource usage", args)
	}
	return ru.Maxrss << 10, time.Since(t0), nil // Maxrss is in KiB on Linux
}

// tailBuffer keeps what a command printed on stderr, for an error.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b) }

// writeTranscript writes size bytes of what an agent's terminal shows:
// coloured status lines, a progress line redrawn with \r, a long line
// that wraps, a test run's output.
func writeTranscript(path string, size int64) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	for i := 0; n < size; i++ {
		k, _ := fmt.Fprintf(w, "\x1b[32m●\x1b[0m Step %d: editing internal/pkg%d/file%d.go\r\n"+
			"  building… %d%%\r  building… 100%%\r\n"+
			"ok  \tgithub.com/example/project/pkg%d\t0.%03ds\r\n"+
			"%s\r\n", i, i%97, i%13, i%100, i%97, i%1000, longLine(i))
		n += int64(k)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// longLine is a line of about 300 characters: it wraps on the 120-column
// screen `logs` renders on.
func longLine(i int) string {
	return fmt.Sprintf("\x1b[2m%0300d\x1b[0m", i)
}
