// Package agentprofile holds one test: an agent profile registered in one
// file (its test file) is seen by config validation, the first-run config,
// the CLI's help and its shell completion, so adding an agent is one file.
package agentprofile
