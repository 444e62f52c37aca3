// Package depfloor holds one test: the modules the build uses are at least
// the versions that fixed the advisories known to reach this program, so a
// careless downgrade (a merge that takes an old go.sum) fails the tests
// even where govulncheck's database cannot be reached.
package depfloor
