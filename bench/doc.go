// Command bench measures what a station costs and how it holds up, each
// figure beside a baseline measured in the same run, and prints one table
// (issue 7). `make bench` runs it through bench.sh, which builds the
// binary first. It needs Linux (/proc) and tmux for the idle baseline.
//
// Figures: idle CPU and RSS of a real station with 0, 20 and 100 idle
// sessions against a capture-pane poller over the same agents in tmux;
// bytes per second through a session against cat through a bare PTY;
// memory per session with a full ring buffer; how late nudges and blocks
// fire with 100 sessions and one flooding; tasks per second through the
// scheduler; start-up to a ready API on an empty board and on 10,000 tasks.
package main
