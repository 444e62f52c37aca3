// Command rusage runs a command and writes its CPU and peak RSS, for make
// bench's CLI start figure:
//
//	rusage OUT COMMAND [ARG...]
//
// writes "USER_NS SYSTEM_NS MAXRSS_KIB" to the file OUT and exits with the
// command's code. The bench cannot read a child's peak RSS itself: Go
// starts children with vfork (CLONE_VM), and the kernel carries the
// parent's high-water mark into the child's across exec, so every command
// the bench ran showed at least the bench's own RSS. This program is small,
// so what it passes on is below any command measured.
package main
