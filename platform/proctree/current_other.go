//go:build !unix && !windows

package proctree

import "errors"

// Current is unsupported where there is neither /proc, ps nor Toolhelp32.
func Current() (map[int]Proc, error) { return nil, errors.ErrUnsupported }
