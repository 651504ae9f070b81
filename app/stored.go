package app

import (
	"context"

	"segnapunti/store"
)

// The stored values the doors show, named here so that neither door needs
// the store: a door calls an operation and renders what it returns.

// DB is the database the operations run over (New, api.NewServer, web.Deps).
type DB = store.DB

type (
	// Person is someone who signs in to the pages (UI.md §2).
	Person = store.Person
	// Session is one sign-in of a person.
	Session = store.Session
	// TokenInfo is an API token as listed: never its secret.
	TokenInfo = store.TokenInfo
	// Correction is a referee's correction of a confirmed sheet (RULES §11).
	Correction = store.Correction
	// StaleSheetError says which version of a sheet is the stored one.
	StaleSheetError = store.StaleSheetError
	// StoredSheet is a sheet with its report and version.
	StoredSheet = store.StoredSheet
	// SheetVersion is one earlier state of a sheet.
	SheetVersion = store.SheetVersion
	// Import is one uploaded workbook.
	Import = store.Import
	// Adjustment is a referee's adjustment (RULES §8).
	Adjustment = store.Adjustment
	// StandingsStamp names one state of a tournament's standings.
	StandingsStamp = store.StandingsStamp
)

// SignConfirm is the kind of the signature that confirms the other line's
// (UI.md §9).
const SignConfirm = store.SignConfirm

var (
	// ErrUnavailable: the database does not answer (a 503 with Retry-After).
	ErrUnavailable = store.ErrUnavailable
	// ErrStorageFull: the database's disk is full (a 507).
	ErrStorageFull = store.ErrStorageFull
	// ErrBadCredentials: a wrong name or password, told apart from neither.
	ErrBadCredentials = store.ErrBadCredentials
	// ErrIdempotencyReused: an Idempotency-Key sent again with another hand.
	ErrIdempotencyReused = store.ErrIdempotencyReused
)

// StorageFull reports whether err says the database's disk is full.
func StorageFull(err error) bool { return store.StorageFull(err) }

// Unavailable is ErrUnavailable when err is a lost connection, else err.
func Unavailable(err error) error { return store.Unavailable(err) }

// MayBeToken reports whether s has the shape of an API token (a table's
// entry code has not).
func MayBeToken(s string) bool { return store.MayBeToken(s) }

// GeneratePassword returns a random password of 16 URL-safe characters.
func GeneratePassword() string { return store.GeneratePassword() }

// Ready reports whether the database answers and takes writes (/readyz).
func (a *App) Ready(ctx context.Context) error { return a.db.Ready(ctx) }

// NoteWriteFailure remembers a write refused for a full disk, so that
// Ready says not ready until writes work again.
func (a *App) NoteWriteFailure(err error) { a.db.NoteWriteFailure(err) }

// Authenticate returns the caller of an API token (domain.ErrNotFound for
// an unknown or revoked one).
func (a *App) Authenticate(ctx context.Context, token string) (Principal, error) {
	return a.db.Authenticate(ctx, token)
}
