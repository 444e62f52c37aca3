package service

import "github.com/buildstation/buildstation/internal/deeplink"

// Scheme is the URL scheme the installers register for this program
// (internal/deeplink reads the links).
const Scheme = deeplink.Scheme
