// Package browsertest holds the tests that drive the whole site — the
// pages and the API on a loopback port, most of them in a real Chromium
// (UI.md §8) — apart from package web's own unit tests, so that each test
// binary keeps well inside Go's per-package time limit on a two-core
// machine.
package browsertest

import (
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m, closeBrowser) }

// sheetOf builds the sheet of a target from hands and written results, as
// the sheet form does (API §4.1 defaults: the tournament's ruleset, the
// round's hands, the seated ids).
func sheetOf(hands []domain.Hand, written [2]domain.WrittenResult) func(app.SheetTarget) (domain.Sheet, error) {
	return func(g app.SheetTarget) (domain.Sheet, error) {
		sh := g.EmptySheet()
		sh.Hands, sh.Written = hands, written
		return sh, nil
	}
}
