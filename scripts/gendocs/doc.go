// Command gendocs writes a man page for every buildstation command into the
// folder given (make docs: docs/man).
package main
