// Package ptytest gives a test a person's terminal: a pseudo-terminal pair
// whose master side is the person's screen and keyboard and whose slave
// side is what the code under test (an attach, the fake agent) reads and
// writes. It is imported only by _test files.
package ptytest
