// Package fakeagent is a scriptable stand-in for an agent CLI (Claude Code,
// Codex, …). The station's tests and `buildstation demo` run it inside a real
// PTY, through the hidden subcommand `buildstation fake-agent SCRIPT`, so that
// every watchdog path (healthy chatter, a silent build, a forgetful agent, a
// wedge, a process tree that ignores SIGTERM) can be played on demand without
// an agent CLI installed and without mocks in the station's tests.
//
// A script is a flat list of steps separated by ";" or newlines, each
// "verb args…". Free text runs to the end of its step, so it cannot hold ";".
//
//	print TEXT              write TEXT and "\r\n"
//	sleep DUR               stay silent for DUR (a Go duration)
//	heartbeat EVERY FOR     print "heartbeat N" every EVERY for FOR (FOR may be "forever")
//	read                    wait for one line on stdin (ended by \r or \n), print "got: LINE"
//	read-prompt TEXT        print TEXT, then read
//	read-submit             like read, but only a line whose "\r" came in its own read,
//	                        at least 100ms after the text, counts; a burst "text\r" is a
//	                        paste: print "pasted, not submitted", drop it, keep waiting
//	progress TEXT           report progress to the station (and print "progress: TEXT")
//	status working|reviewing
//	                        report the session's status (and print "status: …")
//	complete TEXT           report the task complete (and print "complete: TEXT")
//	block TEXT              report the task blocked (and print "block: TEXT")
//	spin DUR                burn CPU in this process for DUR, silently
//	child-spin DUR          run a child that burns CPU for DUR; wait for it, silently
//	child-sleep DUR         start a child that sleeps DUR; do not wait (print its pid)
//	grandchild-sleep DUR    start a child that starts a sleeping child of its own, then
//	                        sleeps DUR itself; do not wait (each level prints its pid)
//	commit MSG              append MSG to work.txt in Dir, git add -A, git commit
//	dirty TEXT              write TEXT to a new untracked dirty-N.txt in Dir
//	commit-every EVERY FOR  commit every EVERY for FOR (FOR may be "forever"), silently
//	ignore-term             ignore SIGTERM (and SIGINT, SIGHUP) from now on
//	exit N                  exit with code N now
//	wedge                   stay silent until killed
//	loop                    (last step only) start the script again
//
// A failed report, commit or child start is printed on stderr and the script
// goes on: the station's tests want to see the failure, not a dead agent.
// Reaching the end of the script exits 0; a bad script exits 2 before
// running anything; input closing during a read exits 1; a cancelled context
// (or Ctrl-C on a raw terminal) exits 130.
package fakeagent
