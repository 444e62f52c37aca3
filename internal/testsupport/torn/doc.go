// Package torn is test support: a database file damaged as a bad sector
// or a torn copy would damage it, for the tests that check a store
// refuses to open one.
package torn
