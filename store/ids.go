package store

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
)

// newID is prefix + 20 random hex digits (80 bits): ids chosen by the
// service (API §4.1) that cannot be guessed or collide in practice.
func newID(prefix string) string {
	b := make([]byte, 10)
	rand.Read(b) // never fails (crypto/rand)
	return prefix + hex.EncodeToString(b)
}

// newTokenPlaintext is "sp_" + 32 random bytes in unpadded base64url.
func newTokenPlaintext() string {
	b := make([]byte, 32)
	rand.Read(b)
	return "sp_" + base64.RawURLEncoding.EncodeToString(b)
}
