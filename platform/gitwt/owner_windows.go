package gitwt

// ownedByOther is false on Windows: a folder's owner is a SID, and git's
// own ownership check (safe.directory) is what refuses another user's
// repository there; a folder that is not git is not checked
// (docs/security.md).
func ownedByOther(dir string) (uid int, other bool) { return 0, false }
