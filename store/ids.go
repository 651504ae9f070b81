package store

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// newID is prefix + 20 random hex digits (80 bits): ids chosen by the
// service (API §4.1) that cannot be guessed or collide in practice.
func newID(prefix string) string {
	b := make([]byte, 10)
	rand.Read(b) // never fails (crypto/rand)
	return prefix + hex.EncodeToString(b)
}

// tokenPrefix starts every API token.
const tokenPrefix = "sp_"

// newTokenPlaintext is tokenPrefix + 32 random bytes in unpadded
// base64url.
func newTokenPlaintext() string {
	b := make([]byte, 32)
	rand.Read(b)
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// MayBeToken reports whether s has the shape of an API token (every token
// ever issued has it). A table's entry code never has (43 or 8
// characters): the door need not look it up as a token first.
func MayBeToken(s string) bool {
	return len(s) == len(tokenPrefix)+base64.RawURLEncoding.EncodedLen(32) && strings.HasPrefix(s, tokenPrefix)
}
