// Package peer finds the process at the other end of a loopback TCP
// connection, so the station can tell an operator call made from inside a
// session's process tree from a person's even when the caller unset the
// session's variables. On Linux it reads /proc/net/tcp and the processes'
// open files; elsewhere it cannot tell (errors.ErrUnsupported), and the
// station records such calls as of unverified origin.
package peer
