package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"segnapunti/domain"
	"segnapunti/store"
)

// Players enter their table's sheet and sign it (UI.md §6, API §4.2;
// FITAB art. 19, FIBur-INT art. 18: the sheet is signed by both lines).

// EntryLink is a freshly issued table link: shown once, only its hash is
// stored.
type EntryLink struct {
	Table int
	URL   string // "/table/<code>"
	Code  string // 256 random bits, base64url
	Short string // the 8-character typed code
}

// canIssueLinks: the round's people — its club, its referees, an admin.
func canIssueLinks(acc Access) bool { return acc.Manage() || acc.Referee }

// IssueEntryLinks issues new entry links for tables of a round (all the
// round's tables when tables is empty), revoking their previous links.
func (a *App) IssueEntryLinks(ctx context.Context, p Principal, tid string, round int, tables []int) ([]EntryLink, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	if !canIssueLinks(acc) {
		return nil, forbidden("api.links_only")
	}
	if round < 1 || round > MaxRoundsPlanned {
		return nil, paramError("n", "api.whole_range_n", "n", MaxRoundsPlanned, round)
	}
	r, err := a.db.GetRound(ctx, t.ID, round)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, notFound("api.no_round", t.ID, round)
	}
	if err != nil {
		return nil, err
	}
	if r.State.Order() >= domain.RoundSheetsDelivered.Order() {
		return nil, roundClosed(t.ID, r.Number, string(r.State))
	}
	if len(tables) == 0 {
		for _, tb := range r.Tables {
			tables = append(tables, tb.Table)
		}
	}
	for _, n := range tables {
		if _, ok := r.Assignment(n); !ok {
			return nil, notFound("api.no_table", r.Number, t.ID, n)
		}
	}
	by := string(p.Role) + ":" + p.Name
	issued, err := a.db.IssueEntryLinks(ctx, t.ID, r.Number, tables, by)
	if err != nil {
		return nil, err
	}
	out := make([]EntryLink, 0, len(issued))
	for _, n := range tables {
		l := issued[n]
		out = append(out, EntryLink{Table: n, URL: "/table/" + l.Code, Code: l.Code, Short: l.Short})
	}
	return out, nil
}

// LinkState says whether a table code opens its table.
type LinkState string

const (
	LinkLive      LinkState = "live"
	LinkUnknown   LinkState = "unknown"   // no such code
	LinkRevoked   LinkState = "revoked"   // a newer link was issued for the table
	LinkDelivered LinkState = "delivered" // the round's sheets are delivered
)

// NormalizeShortCode is a typed code as stored: upper case, no spaces or
// dashes. It reports false for anything that cannot be a short code.
func NormalizeShortCode(s string) (string, bool) {
	s = strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(s)))
	if len(s) != store.ShortCodeLength {
		return s, false
	}
	for _, c := range s {
		if !strings.ContainsRune(store.ShortCodeAlphabet, c) {
			return s, false
		}
	}
	return s, true
}

// maxEntryCode bounds what is hashed and looked up (a real code has 43).
const maxEntryCode = 64

// TableEntry opens a table code — the long one of the link, or the
// 8-character typed one: the principal it acts as and whether it still
// works. Only a live link gives a principal.
func (a *App) TableEntry(ctx context.Context, code string) (Principal, LinkState, error) {
	p, st, _, err := a.tableEntry(ctx, code)
	return p, st, err
}

// TableCodeLookups is how many table codes were looked up since New: a
// door opens the code of a phone's request once, whatever it answers.
func (a *App) TableCodeLookups() int64 { return a.codeLookups.Load() }

// tableEntry is TableEntry that also says which tournament a known code
// belongs to.
func (a *App) tableEntry(ctx context.Context, code string) (Principal, LinkState, string, error) {
	a.codeLookups.Add(1)
	short := false
	if n, ok := NormalizeShortCode(code); ok {
		code, short = n, true
	} else if code == "" || len(code) > maxEntryCode {
		return Principal{}, LinkUnknown, "", nil
	}
	l, err := a.db.EntryLinkByCode(ctx, code, short)
	if errors.Is(err, domain.ErrNotFound) {
		p, st, err := a.tableCardEntry(ctx, code, short) // a table's card (table_cards.go)
		return p, st, p.Entry.TournamentID, err
	}
	if err != nil {
		return Principal{}, "", "", err
	}
	switch {
	case l.RoundState.Order() >= domain.RoundSheetsDelivered.Order():
		return Principal{}, LinkDelivered, l.TournamentID, nil
	case l.Revoked:
		return Principal{}, LinkRevoked, l.TournamentID, nil
	}
	return Principal{Name: fmt.Sprintf("table %d of round %d", l.Table, l.Round), Entry: l}, LinkLive, l.TournamentID, nil
}

// entryTarget is SheetTarget for a table code: exactly its table. Another
// tournament does not exist for it (404); another table or round of its
// tournament is forbidden.
func (a *App) entryTarget(ctx context.Context, p Principal, tid string, round, table int) (domain.Tournament, error) {
	if tid != p.Entry.TournamentID {
		return domain.Tournament{}, notFound("api.no_tournament", tid)
	}
	if round != p.Entry.Round || table != p.Entry.Table {
		return domain.Tournament{}, forbidden("api.code_table", p.Entry.Table, p.Entry.Round)
	}
	return a.db.GetTournament(ctx, tid)
}

// Confirmation is one line's signature as the doors show it.
type Confirmation = store.Confirmation

// ConfirmResult is a sheet after a signature.
type ConfirmResult struct {
	Target        SheetTarget
	Confirmations []Confirmation
	Delivered     bool // the other line confirmed: the sheet is delivered
}

// Signable says why a sheet cannot be signed yet, or nil: FITAB art. 19 /
// UI.md §6 — no error finding, and all the planned hands unless a hand
// ended on time.
func Signable(sh domain.Sheet, rep domain.Report) error {
	if !rep.OK() {
		return conflict("api.sign_errors", rep.Count(domain.SeverityError))
	}
	if len(sh.Hands) < sh.HandsPlanned && !slices.ContainsFunc(sh.Hands, func(h domain.Hand) bool { return h.End == domain.EndTimeOut }) {
		return conflict("api.sign_short", len(sh.Hands), sh.HandsPlanned)
	}
	return nil
}

// signer checks a signature's line and entrant against the table: line
// "ns" or "eo", or empty when the entrant number says which line signs
// (the phone page's confirm step, which asks only for the number).
func signer(g SheetTarget, line, entrant string) (domain.Line, string, error) {
	entrant = strings.TrimSpace(entrant)
	var l domain.Line
	switch line {
	case "ns":
		l = domain.NS
	case "eo":
		l = domain.EO
	case "":
		if l, ok := g.Table.LineOf(entrant); ok { // individual: either player of the line
			return l, entrant, nil
		}
		return l, entrant, invalid([]FieldError{field("/entrant", "field.entrant_neither", entrant, g.Table.Table)})
	default:
		return l, entrant, invalid([]FieldError{field("/line", "field.line_value", line)})
	}
	if entrant == "" || !slices.Contains(g.Table.Line(l), entrant) {
		return l, entrant, invalid([]FieldError{field("/entrant", "field.entrant_not_line", entrant, l.Label(), g.Table.Table)})
	}
	return l, entrant, nil
}

func lineEntrant(g SheetTarget, l domain.Line) string {
	if l == domain.EO {
		return g.Table.EO
	}
	return g.Table.NS
}

// signedVia is how a signature was given: "table" (the table's code) or
// the signed-in name.
func signedVia(p Principal) string {
	if p.TableEntry() {
		return "table"
	}
	return p.Name
}

// signError turns the store's refusals of a signature into the operation's.
func signError(g SheetTarget, err error, dup string) error { // dup: the code of the refusal of a second signature
	var ae *Error
	switch {
	case errors.Is(err, store.ErrRoundClosed):
		return roundClosed(g.Tournament.ID, g.Round.Number, "no longer being played")
	case errors.Is(err, domain.ErrNotFound):
		return conflict("api.sign_empty", g.Table.Table)
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, domain.ErrConflict):
		return conflict(dup)
	}
	return err
}

func signableStored(st store.StoredSheet) error { return Signable(st.Sheet, domain.Validate(st.Sheet)) }

// EndSheet stores the scorer's line's signature that ends the sheet (UI.md
// §6: optional — the other line's confirmation alone ends and delivers
// it): line "ns" or "eo" and that line's entrant number. No hand is taken
// afterwards; the other line confirms with ConfirmSheet.
func (a *App) EndSheet(ctx context.Context, p Principal, tid string, round, table int, line, entrant string) (ConfirmResult, error) {
	g, err := a.SheetTarget(ctx, p, tid, round, table, true)
	if err != nil {
		return ConfirmResult{}, err
	}
	if line == "" {
		return ConfirmResult{}, invalid([]FieldError{field("/line", "field.line_required")})
	}
	l, entrant, err := signer(g, line, entrant)
	if err != nil {
		return ConfirmResult{}, err
	}
	list, err := a.db.EndSheet(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table,
		store.Confirmation{Line: l, Entrant: entrant, Via: signedVia(p)}, signableStored)
	if err != nil {
		return ConfirmResult{}, signError(g, err, "api.ended_already")
	}
	return ConfirmResult{Target: g, Confirmations: list}, nil
}

// CodeConfirmOwnLine is the refusal of a confirmation by the line that
// kept the score (UI.md §9, FITAB art. 19: the other line confirms).
const CodeConfirmOwnLine = "CONFIRM_OWN_LINE"

// confirmOwnLine is the refusal of a confirmation by the scoring line.
func confirmOwnLine(g SheetTarget, scorer domain.Line) error {
	o := scorer.Other()
	e := refusal(domain.ErrConflict, "api.own_line",
		scorer.Label(), strings.Join(g.Table.Line(scorer), " / "), o.Label(), strings.Join(g.Table.Line(o), " / "))
	e.Code = CodeConfirmOwnLine
	e.Fields = []FieldError{field("/entrant", "api.own_line_field")}
	return e
}

// ConfirmSheet is the other line's confirmation (API §4.2, UI.md §6): it
// ends and delivers the sheet. line is "ns" or "eo" and entrant that
// line's number: the caller declares which line confirms, and the other
// line is stored as the one that ended the sheet, at the same time,
// unless it ended it before. Empty line (the phone page, which asks only
// for the number) needs the scoring line's own end first: the number
// alone cannot tell who scored. The line that ended the sheet
// never confirms it: CONFIRM_OWN_LINE, also when it types its own number
// under the other line's name. 409 while the sheet has an error finding
// or fewer hands than planned without a time-out, when it is confirmed
// already, or not ended and the line not given; 422 for a wrong entrant
// number.
func (a *App) ConfirmSheet(ctx context.Context, p Principal, tid string, round, table int, line, entrant string) (ConfirmResult, error) {
	g, err := a.SheetTarget(ctx, p, tid, round, table, true)
	if err != nil {
		return ConfirmResult{}, err
	}
	have, err := a.db.SheetConfirmations(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
	if err != nil {
		return ConfirmResult{}, err
	}
	if len(have) == 1 {
		if own, ok := g.Table.LineOf(strings.TrimSpace(entrant)); ok && own == have[0].Line {
			return ConfirmResult{}, confirmOwnLine(g, own)
		}
	}
	l, entrant, err := signer(g, line, entrant)
	if err != nil {
		return ConfirmResult{}, err
	}
	via := signedVia(p)
	var scorer *store.Confirmation
	if line != "" {
		o := l.Other()
		scorer = &store.Confirmation{Line: o, Entrant: lineEntrant(g, o), Via: via}
	}
	list, err := a.db.ConfirmSheet(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table,
		store.Confirmation{Line: l, Entrant: entrant, Via: via}, scorer, signableStored)
	switch {
	case errors.Is(err, store.ErrOwnLine):
		return ConfirmResult{}, confirmOwnLine(g, l)
	case errors.Is(err, store.ErrNotEnded):
		return ConfirmResult{}, conflict("api.end_first")
	case err != nil:
		return ConfirmResult{}, signError(g, err, "api.confirmed_already")
	}
	return ConfirmResult{Target: g, Confirmations: list, Delivered: true}, nil
}

// Confirmations returns the signatures of a table's sheet.
func (a *App) Confirmations(ctx context.Context, p Principal, tid string, round, table int) ([]Confirmation, error) {
	g, err := a.SheetTarget(ctx, p, tid, round, table, false)
	if err != nil {
		return nil, err
	}
	return a.db.SheetConfirmations(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
}

// CallReferee raises a table's "call the referee" flag (UI.md §6), read by
// the referee's review queue (RefereeCalls).
func (a *App) CallReferee(ctx context.Context, p Principal, tid string, round, table int) error {
	g, err := a.SheetTarget(ctx, p, tid, round, table, false)
	if err != nil {
		return err
	}
	return a.db.CallReferee(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
}

// RefereeCall is a table's open call for the referee.
type RefereeCall = store.RefereeCall

// RefereeCalls lists the tables calling for the referee, oldest first.
func (a *App) RefereeCalls(ctx context.Context, p Principal, tid string) ([]RefereeCall, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	return a.db.RefereeCalls(ctx, t.ID)
}

// statusOf is the status of a table (UI.md §3 data-status): sheet nil
// when none is stored; signatures are the lines' signatures at the table
// (FITAB art. 19, FIBur-INT art. 18): one is the scorer's line that ended
// the sheet, two are a sheet the other line confirmed — delivered (API
// §4.2). Delivered: confirmed, or the round's sheets delivered; awaiting
// confirmation: all planned hands in, a time-out, or ended.
func statusOf(sh *domain.Sheet, hasError bool, signatures int, roundState domain.RoundState) TableStatus {
	delivered := signatures >= 2 || roundState.Order() >= domain.RoundSheetsDelivered.Order()
	switch {
	case (sh == nil || len(sh.Hands) == 0) && !delivered:
		return TableEmpty
	case delivered && hasError:
		return TableFlagged
	case delivered:
		return TableDelivered
	case len(sh.Hands) >= sh.HandsPlanned || slices.ContainsFunc(sh.Hands, func(h domain.Hand) bool { return h.End == domain.EndTimeOut }) || signatures > 0:
		return TableAwaitingConfirmation
	}
	return TableInProgress
}

// EntryHandsAt is when a table's signatures were given, for the sheet page.
func EntryHandsAt(c []Confirmation, l domain.Line) (time.Time, bool) {
	for _, x := range c {
		if x.Line == l {
			return x.At, true
		}
	}
	return time.Time{}, false
}

// sheetSigned: FITAB art. 19 / 20 — a signed sheet is the players'
// delivered record; what may still change goes through a referee.
func sheetSigned(g SheetTarget) error {
	return conflict("api.sheet_signed", g.Table.Table, g.Round.Number)
}

// moreHands says why no hand may follow hands in a match of planned hands,
// or nil. The match is over once the hands its round plans are played
// (RULES §6.3, HANDS_EXCEED_PLANNED) or after a hand ended on time: the
// time-out starts the last hand (RULES §5, HAND_AFTER_TIME_OUT). A whole sheet written on paper may still hold
// more, and its report says so (HANDS_EXCEED_PLANNED); hands entered one
// by one, at the table or through the API, stop here.
func moreHands(hands []domain.Hand, planned int) error {
	if i := slices.IndexFunc(hands, func(h domain.Hand) bool { return h.End == domain.EndTimeOut }); i >= 0 {
		return conflict("api.hand_after_time_out", i+1)
	}
	if len(hands) >= planned {
		return conflict("api.match_over", planned)
	}
	return nil
}
