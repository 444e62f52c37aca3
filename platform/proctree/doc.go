// Package proctree reads the operating system's process table so that the
// station can see an agent's whole process tree: Stop kills every
// descendant (even one that left the agent's process group), and the
// watchdog's CPU evidence sums the tree's CPU ticks.
//
// On Linux the table comes from /proc/<pid>/stat in one pass (Snapshot, whose
// root is injectable for tests); on macOS and the BSDs from ps; on Windows
// from a Toolhelp32 snapshot.
package proctree
