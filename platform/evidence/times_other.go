//go:build !linux && !darwin && !windows

package evidence

import "github.com/buildstation/buildstation/platform/proctree"

// osTimes: no CPU times here (the BSDs); the layer never shows life.
func osTimes(proctree.Proc) (procTimes, bool) { return procTimes{}, false }
