// Package officialtest holds the tests that drive the pages of the
// referee, the federation and the administrator, pairings and imports, in
// a real Chromium or over loopback HTTP (UI.md §8). They are apart from
// package browsertest so that each test binary keeps well inside Go's
// per-package time limit on a two-core machine.
package officialtest

import (
	"testing"

	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

func TestMain(m *testing.M) { dbtest.Main(m, webtest.CloseBrowser) }
