// Package assets holds the app's icons, embedded in the binary. The badges
// the tray shows per state are drawn at run time from these (app/badge.go),
// so there is no picture per state here.
//
//go:generate go run gen_icon.go
package assets
