// Package teamtest runs a team championship of eight teams from the pages
// in a real Chromium (RULES §12: line-ups, matches of two tables, team
// standings). It is the longest whole-event test, apart from
// web/eventtest so that neither package nears Go's per-package limit when
// CI runs them beside each other.
package teamtest

import (
	"testing"

	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

func TestMain(m *testing.M) { dbtest.Main(m, webtest.CloseBrowser) }
