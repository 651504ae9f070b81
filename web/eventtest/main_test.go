// Package eventtest runs whole tournaments from the pages in a real
// Chromium, start to finish (RULES §12: a round robin, a two-session event
// with withdrawals, a team championship): each test is long, so they live
// apart from the evening's page tests (web/browsertest) and run beside
// them.
package eventtest

import (
	"testing"

	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

func TestMain(m *testing.M) { dbtest.Main(m, webtest.CloseBrowser) }
