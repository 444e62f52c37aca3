// Package fault holds fault-injection tests that run the real buildstation
// binary as a station subprocess and break its world: kill -9 at random
// points, process trees that escape their group, a flooding session, a full
// disk under logs/, a locked or read-only board. They run on Linux (they
// read /proc); the disk and read-only cases need root (mount, chattr) and
// skip with a message without it.
package fault
