// Package architecture holds the test that keeps the import arrows of the
// house pointing one way (see docs/architecture.md):
//
//   - the engine (supervisor and its board, API and outbox packages) never
//     reaches platform/, the tray, the CLI or the wiring: it is given the
//     OS through interfaces;
//   - a board store reaches the vocabulary and its database driver only;
//   - platform/ packages never reach the tray, the CLI, the wiring, the API
//     or a store;
//   - the tray (app/) reaches neither platform/, the CLI, a store nor the
//     wiring, and the CLI reaches neither the tray nor the wiring.
//
// Arrows the house still has, and means to lose, are listed in the test as
// debts with the reason they remain; the test fails when a new arrow
// appears and when a listed debt is paid, so the list stays true.
package architecture
