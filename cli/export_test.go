package cli

// SetLogsTail sets how many bytes at a transcript's end logs renders, for
// the test's duration; it returns the old value.
func SetLogsTail(n int64) (old int64) {
	old, logsTail = logsTail, n
	return old
}

// PrintWork is task show's part on a task's branch.
var PrintWork = printWork

// BuildVersion is buildVersion, for the version tests.
var BuildVersion = buildVersion

// DevVersion is the version of a build from a clone without a commit.
const DevVersion = devVersion
