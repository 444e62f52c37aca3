// Package pgtest gives a test a database of its own on the PostgreSQL
// server BUILDSTATION_TEST_PG names (`eval "$(bash .ci/postgres.sh)"`
// starts a throwaway one and sets it; its user may create databases). A
// database per test keeps parallel tests, and their notifications, apart.
// It is imported only by _test files.
package pgtest
