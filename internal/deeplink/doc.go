// Package deeplink reads and writes buildstation:// links: the session a
// link shows, and a notice button's decision with the key that proves the
// station's own notice made it (DecisionKey). Pure: no I/O, so the
// installers, the notifier, the tray and the link handler share it.
package deeplink
