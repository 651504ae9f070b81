// Package domain is the rules of Burraco tournaments, and nothing else:
// the federation codes (FITAB, FIBur) as docs/rules.md states them, each
// rule citing its article, and each reading the codes leave open marked
// [INTERP] there and kept in one place here (interp.go, pairing_interp.go).
//
// It is pure: no I/O, no clock, no database, no HTTP, no package-level
// regular expression, and it imports nothing of the module (app's
// TestLayers checks it). It runs on the server and, compiled to
// WebAssembly (cmd/engine-wasm), on the players' phones; after changing it
// run go generate ./web/wasm.
//
// Where things are:
//
//   - rulesets, cards and VP tables: ruleset.go, cards.go, vptable.go
//   - a sheet, its hands and who sits at its lines, and what the
//     validator finds on it (RULES §5–§6): sheet.go, lines.go, match.go,
//     validate.go, readings.go, finding.go, and the article each finding
//     cites, articles.go
//   - adjustments (§7), standings and the official result (§8):
//     adjustment.go, standings.go, official.go, official_standings.go
//   - corrections and their rulings (§9): ruling.go
//   - tournaments, rounds and their states (§10), interruption (§12.6):
//     tournament.go, interruption.go
//   - pairings and movements (§11) and their check: pairing*.go
//   - the plan, withdrawals, substitutions, teams (§12): plan.go,
//     substitution.go, teams.go
//   - prize categories: prizes.go
//
// Errors wrap ErrInvalid, ErrNotFound or ErrConflict; the doors turn those
// into their answers once.
package domain
