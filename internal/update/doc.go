// Package update asks the project's releases whether a newer version than
// this build exists: what the tray checks at most once a day and `buildstation
// version --check` asks on demand. It only tells; it never downloads or
// replaces anything.
//
// The releases API is GitHub's "latest release" (GET {base}/releases/latest,
// answering tag_name and html_url). BUILDSTATION_UPDATE_URL points it at a
// stand-in server (tests), or turns it off with "off" (the e2e rig sets that,
// so no test asks the real one).
package update
