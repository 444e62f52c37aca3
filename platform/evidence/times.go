package evidence

import "time"

// The OS-specific readers (times_*.go) only fetch figures; turning them
// into procTimes is here, so the arithmetic is tested on every OS with
// figures recorded on Windows and macOS.

// windowsTimes turns GetProcessTimes' kernel and user times (100 ns units)
// and creation time into procTimes. Windows keeps no reaped-children time.
func windowsTimes(kernel, user int64, created uint64) procTimes {
	return procTimes{own: time.Duration(kernel+user) * 100, start: created}
}

// darwinTimes turns rusage_info_v2's Mach-time figures into procTimes:
// nanoseconds = units × numer / denom (mach_timebase_info).
func darwinTimes(user, system, childUser, childSystem, start, numer, denom uint64) procTimes {
	ns := func(units uint64) time.Duration {
		// units × numer overflows uint64 only past ~5 years of CPU at
		// numer 125; divide first for those.
		if units > (1<<63)/max(numer, 1) {
			return time.Duration(units / denom * numer)
		}
		return time.Duration(units * numer / denom)
	}
	return procTimes{own: ns(user) + ns(system), reaped: ns(childUser) + ns(childSystem), start: start}
}

// timebaseFor is the Mach timebase ratio for a timebase frequency in Hz;
// 0 (unknown) is taken as Intel's 1 GHz, where Mach time is nanoseconds.
func timebaseFor(hz uint64) (numer, denom uint64) {
	if hz == 0 {
		return 1, 1
	}
	n, d := uint64(1e9), hz
	for a, b := n, d; ; {
		if b == 0 {
			return n / a, d / a
		}
		a, b = b, a%b
	}
}
