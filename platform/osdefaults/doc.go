// Package osdefaults finds what this machine decides about config.toml's
// defaults (config.Platform), so that reading config looks at the file
// alone: the wiring asks here once and hands the answer to config.Load.
// What differs by OS lives in files by suffix.
package osdefaults
