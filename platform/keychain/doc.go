// Package keychain keeps a source's token in the OS keychain (macOS
// Keychain, Windows Credential Manager, the Secret Service on Linux),
// through zalando/go-keyring, so that no token lives in config.toml. A
// machine without one (a headless Linux box with no Secret Service) gets a
// one-sentence error that points at token_env, never a crash.
package keychain
