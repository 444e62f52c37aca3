//go:build !unix

package apitype

// CheckHome has nothing to check here: on Windows a home under the user's
// profile inherits an ACL that only the user (and administrators) may use,
// and Go reports no owner to compare.
func CheckHome(dir string) error { return nil }

// SecureHome is CheckHome here.
func SecureHome(dir string) error { return CheckHome(dir) }
