//go:build linux

package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// runPoller is the design other agent managers use, as the idle baseline,
// doing per round what claude-squad does for each session: capture the
// pane's screen with its colours and joined lines (capture-pane -p -e -J),
// hash it to see whether it changed, and refresh the session's diff in its
// worktree (git add -N . && git diff). It runs until SIGTERM and then
// prints how many rounds it completed against how many its ticker asked
// for: on a busy machine a round takes longer than the interval.
func runPoller(args []string) int {
	fs := flag.NewFlagSet("poller", flag.ExitOnError)
	sock := fs.String("L", "", "tmux socket name")
	interval := fs.Duration("interval", 500*time.Millisecond, "poll interval")
	_ = fs.Parse(args)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	tick := time.NewTicker(*interval)
	defer tick.Stop()
	start := time.Now()
	last := map[string][32]byte{}
	rounds, changes := 0, 0
	for {
		select {
		case <-stop:
			asked := int(time.Since(start) / *interval)
			fmt.Printf("%d rounds of %d asked, %d screen changes seen (the first round counts every pane)\n", rounds, asked, changes)
			return 0
		case <-tick.C:
		}
		out, err := exec.Command("tmux", "-L", *sock, "list-panes", "-a", "-F", "#{pane_id} #{pane_current_path}").Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "poller: list panes: %v\n", err)
			continue
		}
		for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
			id, dir, _ := strings.Cut(line, " ")
			screen, err := exec.Command("tmux", "-L", *sock, "capture-pane", "-p", "-e", "-J", "-t", id).Output()
			if err != nil {
				continue
			}
			h := sha256.Sum256(screen)
			if last[id] != h {
				changes++
				last[id] = h
			}
			if dir != "" {
				add := exec.Command("git", "add", "-N", ".")
				add.Dir = dir
				if add.Run() == nil {
					diff := exec.Command("git", "--no-pager", "diff")
					diff.Dir = dir
					_, _ = diff.Output()
				}
			}
		}
		rounds++
	}
}
