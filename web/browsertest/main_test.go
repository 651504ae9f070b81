// Package browsertest holds the tests that drive the site of a club
// evening — the secretary's pages, the players' table pages, the public
// pages — in a real Chromium or over loopback HTTP (UI.md §8).
package browsertest

import (
	"testing"

	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

func TestMain(m *testing.M) { dbtest.Main(m, webtest.CloseBrowser) }
