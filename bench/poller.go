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

// runPoller is the design other agent managers use, as the idle baseline:
// every interval, list the panes and `tmux capture-pane` each one, hashing
// its screen to see whether it changed. It runs until SIGTERM and then
// prints how many rounds it completed.
func runPoller(args []string) int {
	fs := flag.NewFlagSet("poller", flag.ExitOnError)
	sock := fs.String("L", "", "tmux socket name")
	interval := fs.Duration("interval", 500*time.Millisecond, "poll interval")
	_ = fs.Parse(args)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	tick := time.NewTicker(*interval)
	defer tick.Stop()
	last := map[string][32]byte{}
	rounds, changes := 0, 0
	for {
		select {
		case <-stop:
			fmt.Printf("%d rounds, %d screen changes seen (the first round counts every pane)\n", rounds, changes)
			return 0
		case <-tick.C:
		}
		out, err := exec.Command("tmux", "-L", *sock, "list-panes", "-a", "-F", "#{pane_id}").Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "poller: list panes: %v\n", err)
			continue
		}
		for _, id := range strings.Fields(string(out)) {
			screen, err := exec.Command("tmux", "-L", *sock, "capture-pane", "-p", "-t", id).Output()
			if err != nil {
				continue
			}
			h := sha256.Sum256(screen)
			if last[id] != h {
				changes++
				last[id] = h
			}
		}
		rounds++
	}
}
