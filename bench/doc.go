// Command bench measures what a station costs and how it holds up, each
// figure beside a baseline measured in the same run, and prints one table
// (issue 7). `make bench` runs it through bench.sh, which builds the
// binary first. It needs Linux (/proc) and tmux for the idle baseline.
//
// Figures: idle CPU and memory of a real station with 0, 10, 100 and 300
// idle sessions on each backend (pty, tmux), as a scaling table, against a
// poller doing what claude-squad does each round (capture-pane -p -e -J and
// git add -N . && git diff per session) over the same agents in tmux;
// bytes per second through a session against cat through a bare PTY; how
// late nudges and blocks fire when 100 sessions' deadlines coincide, with
// and without one more session flooding, on each backend; tasks per second
// through the scheduler; task adds from 16 clients at once against one at
// a time; start-up to a ready API on an empty board and on 10,000 tasks;
// status and task ls on boards of 10,000 and 100,000 tasks.
package main
