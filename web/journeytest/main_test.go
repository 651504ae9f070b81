// Package journeytest holds the whole evenings driven in a real Chromium
// (UI.md §8): the secretary's evening from the first tournament to the
// standings, the hall's evening with its prizes, signing in and out, the
// admin's people, the live public standings. They are the longest browser
// tests, apart from web/browsertest so that neither package nears Go's
// per-package limit when CI runs them beside each other.
package journeytest

import (
	"testing"

	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

func TestMain(m *testing.M) { dbtest.Main(m, webtest.CloseBrowser) }
