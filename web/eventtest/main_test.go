// Package eventtest drives what lies beyond one pairs evening (RULES §12)
// in a real Chromium: whole tournaments run from the pages start to finish
// (a round robin, a two-session event with withdrawals; the team
// championship is in web/teamtest) and the pages of §12 (a withdrawal during a round, vacated
// tables, line-ups and who sat, team standings, an interruption). They
// live apart from the evening's page tests (web/browsertest) and run
// beside them, so that neither package nears Go's time limit.
package eventtest

import (
	"testing"

	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

func TestMain(m *testing.M) { dbtest.Main(m, webtest.CloseBrowser) }
