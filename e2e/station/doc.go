// Package station holds end-to-end tests of the real buildstation binary:
// a station subprocess on a temp home, real PTYs, the scripted fake agent
// and real git repos, driven through the CLI. Linux only: they read /proc.
package station
