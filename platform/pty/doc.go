// Package pty starts agent sessions in a pseudo-terminal and ends their
// whole process tree. It implements supervisor.Spawner: creack/pty on unix,
// ConPTY on Windows.
//
// An agent leads its own session and process group on unix, so a signal to
// the group reaches everything it started that stayed in the group; Stop
// also walks the process table (package proctree) for anything that left
// the group with setsid. On Windows the agent is put in a Job Object.
package pty
