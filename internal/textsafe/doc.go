// Package textsafe makes text from outside (task titles, block reasons,
// agents' summaries, other programs' requests) safe where control
// characters would act rather than show: typed into an agent's terminal,
// where a carriage return submits a line (and a line starting with "!" runs
// a shell command in Claude Code), or printed to a person's terminal, where
// escape sequences set the clipboard, the title, or hide text.
package textsafe
