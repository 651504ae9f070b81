package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/sheetjson"
	"segnapunti/store"
	"segnapunti/tournamentfile"
)

// The open tournament file (API §4.4, docs/format.md): the whole
// tournament in one document that another instance imports and anybody
// verifies. TournamentFile writes it from the records; ImportTournamentFile
// stores one as a new tournament, in one transaction.

// TournamentFile is the tournament p may read as the open format.
func (a *App) TournamentFile(ctx context.Context, p Principal, tid string) (tournamentfile.File, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return tournamentfile.File{}, err
	}
	return a.tournamentFile(ctx, t)
}

// MarshalTournamentFile is TournamentFile written as bytes.
func (a *App) MarshalTournamentFile(ctx context.Context, p Principal, tid string) ([]byte, domain.Tournament, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, t, err
	}
	f, err := a.tournamentFile(ctx, t)
	if err != nil {
		return nil, t, err
	}
	b, err := tournamentfile.Marshal(f)
	return b, t, err
}

func fileTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func (a *App) tournamentFile(ctx context.Context, t domain.Tournament) (tournamentfile.File, error) {
	f := tournamentfile.File{Format: tournamentfile.Format, Version: tournamentfile.Version, ExportedAt: fileTime(a.now())}
	ft := tournamentfile.Tournament{ID: t.ID, Name: t.Name, Date: t.Date.Format(time.DateOnly), Level: string(t.Level),
		Ruleset: string(t.Ruleset), Kind: string(t.Kind), RoundsPlanned: t.RoundsPlanned, HandsPerRound: t.HandsPerRound,
		Plan: filePlan(t), Public: t.Public}
	if ft.Kind == "" {
		ft.Kind = string(domain.KindPairs)
	}
	if !t.VPTable.IsZero() {
		ft.VPTable = new(t.VPTable.ID())
	}
	fileInterruption(t, &ft)
	if t.ClubID != "" {
		club, err := a.db.GetClub(ctx, t.ClubID)
		if err != nil && !errors.Is(err, domain.ErrNotFound) {
			return f, err
		}
		ft.Club = &tournamentfile.Club{ID: t.ClubID, Name: club.Name}
	}
	f.Tournament = ft

	entrants, err := a.db.ListEntrants(ctx, t.ID)
	if err != nil {
		return f, err
	}
	for _, e := range entrants {
		fe := tournamentfile.Entrant{ID: e.ID, Club: e.Club, WithdrawnFromRound: fileWithdrawn(e), WithdrawnReason: e.WithdrawnReason}
		if e.Team != "" {
			fe.Team = new(e.Team)
		}
		for _, p := range e.Players {
			fe.Players = append(fe.Players, filePlayer(p))
		}
		f.Entrants = append(f.Entrants, fe)
	}

	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return f, err
	}
	for _, r := range rounds {
		system := r.System
		if system == "" {
			system = domain.SystemChoice // a round seated by hand
		}
		fr := tournamentfile.Round{Number: r.Number, HandsPlanned: r.HandsPlanned, Phase: string(r.Phase), Session: fileSession(t, r),
			System: string(system), Seed: r.Seed, State: string(r.State), Byes: r.Byes, Groups: r.Groups, Vacated: r.Vacated}
		for _, ta := range r.Tables {
			fr.Tables = append(fr.Tables, tournamentfile.Table{Table: ta.Table, Match: fileMatch(r, ta),
				NS: ta.Line(domain.NS), EO: ta.Line(domain.EO)})
		}
		f.Rounds = append(f.Rounds, fr)
	}

	signed, err := a.db.TournamentConfirmations(ctx, t.ID)
	if err != nil {
		return f, err
	}
	for st, err := range a.db.EachSheet(ctx, t.ID) {
		if err != nil {
			return f, err
		}
		raw, err := sheetjson.Encode(st.Sheet)
		if err != nil {
			return f, fmt.Errorf("sheet of round %d, table %d: %w", st.Round, st.Table, err)
		}
		m := domain.OfficialResult(st.Sheet, domain.Validate(st.Sheet))
		fs := tournamentfile.Sheet{Round: st.Round, Table: st.Table, Sheet: raw, StoredAt: fileTime(st.UpdatedAt)}
		fs.Official = tournamentfile.Result{NS: lineResult(m.Lines[domain.NS].Official), EO: lineResult(m.Lines[domain.EO].Official)}
		fs.Computed = tournamentfile.Result{NS: lineResult(m.Lines[domain.NS].Computed), EO: lineResult(m.Lines[domain.EO].Computed)}
		for _, c := range signed[[2]int{st.Round, st.Table}] {
			fs.Signatures = append(fs.Signatures, tournamentfile.Signature{Line: c.Line.String(), Kind: string(c.Kind),
				SignedBy: c.SignedBy.String(), Entrant: c.Entrant, By: c.Via, At: fileTime(c.At)})
		}
		f.Sheets = append(f.Sheets, fs)
	}

	corrections, err := a.db.ListCorrections(ctx, t.ID, store.CorrectionFilter{})
	if err != nil {
		return f, err
	}
	for _, c := range corrections {
		s := c.Situation
		f.Corrections = append(f.Corrections, tournamentfile.Correction{
			Round: c.Round, Table: c.Table, Kind: string(c.Kind), Reason: c.Reason,
			Situation: tournamentfile.Situation{Ruleset: string(s.Ruleset), Kind: string(s.Kind), Level: string(s.Level), Phase: string(s.Phase),
				ErrorRound: s.ErrorRound, CurrentRound: s.CurrentRound, CurrentRoundStarted: s.CurrentRoundStarted,
				TournamentClosed: s.TournamentClosed, StandingsPublished: s.StandingsPublished, StandingsContested: s.StandingsContested,
				PositionsPublished: s.PositionsPublished, BothLinesAcknowledge: s.BothLinesAcknowledge, RefereeCountersigned: s.RefereeCountersigned},
			Ruling: string(c.Ruling), Rules: c.Rules, RulingReason: c.RulingReason, Applied: c.Applied,
			Before: c.Before, After: c.After, SheetVersion: c.SheetVersion, By: c.Author, At: fileTime(c.At),
		})
	}

	adjustments, err := a.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return f, err
	}
	for _, adj := range adjustments {
		c, e := adj.Case, adj.Effect
		fa := tournamentfile.Adjustment{Entrant: adj.Entrant, By: adj.Author, At: fileTime(adj.At),
			Case: tournamentfile.AdjustCase{Reason: string(c.Reason), Party: string(c.Party), Ruleset: string(c.Ruleset), Kind: string(c.Kind),
				HandsPlanned: c.HandsPlanned, Phase: string(c.Phase), WarningsBefore: c.WarningsBefore, ByesBefore: c.ByesBefore,
				LateRound: c.LateRound, Played: tournamentfile.ScoreOf(c.Played), AtInterruption: tournamentfile.ScoreOf(c.AtInterruption),
				Advantage: c.Advantage, Referee: tournamentfile.ScoreOf(c.Referee), Note: c.Note},
			Effect: tournamentfile.Effect{Result: tournamentfile.ScoreOf(e.Result), Bye: e.Bye, Awarded: e.Awarded,
				Delta: tournamentfile.Score{VP: e.Delta.VP, MP: e.Delta.MP}, LatePoints: e.LatePoints, Warning: e.Warning,
				Rules: e.Rules, Reason: e.Reason}}
		for _, fl := range e.Flags {
			fa.Effect.Flags = append(fa.Effect.Flags, string(fl))
		}
		if adj.Round > 0 {
			fa.Round = new(adj.Round)
		}
		f.Adjustments = append(f.Adjustments, fa)
	}

	after := 0
	if ruling, interrupted := t.Interruption(); interrupted {
		after = ruling.AfterRound // FITAB art. 39: the standings after the last completed round
	}
	st, err := a.StandingsOf(ctx, t, after)
	if err != nil {
		return f, err
	}
	f.Standings = tournamentfile.StandingsOf(st.AfterRound, st.Rows)
	return f, a.fileTwelve(ctx, t, &f, entrants, rounds, st)
}

func lineResult(r domain.LineResult) tournamentfile.LineResult {
	return tournamentfile.LineResult{Total: r.Total, MP: r.MP, VP: r.VP}
}

// ImportTournamentFile stores the file as a new tournament of this
// instance, in one transaction, and returns it. A club imports into
// itself; an admin or the federation into the file's club, which must
// exist here. A file that cannot be read or does not hold together is a
// field error naming the JSON pointer.
func (a *App) ImportTournamentFile(ctx context.Context, p Principal, data []byte) (domain.Tournament, error) {
	if err := RequireRole(p, domain.RoleClub, domain.RoleAdmin, domain.RoleFederation); err != nil {
		return domain.Tournament{}, err
	}
	f, err := tournamentfile.DecodeBytes(data)
	if err != nil {
		return domain.Tournament{}, fileError(err)
	}
	if errs := sameChecksAsTheAPI(f); len(errs) > 0 {
		return domain.Tournament{}, invalid(errs)
	}
	c, err := tournamentfile.Check(f)
	if err != nil {
		return domain.Tournament{}, fileError(err)
	}
	t := c.Tournament
	t.ID = ""
	switch {
	case p.Role == domain.RoleClub:
		t.ClubID = p.ClubID
	case t.ClubID == "":
		return domain.Tournament{}, invalid([]FieldError{field("/tournament/club", "field.club_required_file")})
	default:
		if _, err := a.db.GetClub(ctx, t.ClubID); errors.Is(err, domain.ErrNotFound) {
			return domain.Tournament{}, invalid([]FieldError{field("/tournament/club/id", "field.no_club_instance", t.ClubID)})
		} else if err != nil {
			return domain.Tournament{}, err
		}
	}
	imp := store.TournamentImport{Tournament: t, Entrants: c.Entrants, Rounds: c.Rounds,
		Substitutions: c.Substitutions, Lineups: c.Lineups, PrizeCategories: c.PrizeCategories}
	for _, s := range c.Sheets {
		rep, err := reportjson.Marshal(domain.Validate(s.Sheet), domain.English)
		if err != nil {
			return domain.Tournament{}, err
		}
		is := store.ImportedTournamentSheet{Round: s.Round, Table: s.Table, Sheet: s.Sheet, ReportJSON: rep, StoredAt: s.StoredAt}
		for _, sg := range s.Signatures {
			is.Signatures = append(is.Signatures, store.Confirmation{Line: sg.Line, Kind: store.SignatureKind(sg.Kind), SignedBy: sg.SignedBy,
				Entrant: sg.Entrant, Via: sg.By, At: sg.At})
		}
		imp.Sheets = append(imp.Sheets, is)
	}
	for _, cr := range c.Corrections {
		imp.Corrections = append(imp.Corrections, store.Correction{Round: cr.Round, Table: cr.Table, Kind: cr.Kind,
			Ruling: cr.Ruling, Rules: cr.Rules, RulingReason: cr.RulingReason, Reason: cr.Reason, Applied: cr.Applied,
			Situation: cr.Situation, Before: compactRaw(cr.Before), After: compactRaw(cr.After), SheetVersion: cr.SheetVersion, Author: cr.By, At: cr.At})
	}
	for _, ad := range c.Adjustments {
		imp.Adjustments = append(imp.Adjustments, store.Adjustment{Entrant: ad.Entrant, Round: ad.Round, Case: ad.Case, Effect: ad.Effect,
			Author: ad.Author, At: ad.At})
	}
	return a.db.ImportTournament(ctx, imp)
}

// compactRaw is a JSON document without insignificant blanks ("{}" kept as
// is; empty stays empty).
func compactRaw(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return b
	}
	return out.Bytes()
}

// fileError is a tournamentfile error as a field error.
func fileError(err error) error {
	var fe *tournamentfile.Error
	if errors.As(err, &fe) {
		if fe.Syntax {
			return uncodedRefusal(ErrBadParameter, fe.Error(), uncoded(fe.Pointer, fe.Detail))
		}
		return invalid([]FieldError{uncoded(fe.Pointer, fe.Detail)})
	}
	return err
}

// sameChecksAsTheAPI holds an imported file's tournament and entrants to
// the checks POST /v1/tournaments and POST …/entrants make (lengths,
// blank and control characters, entrant id syntax, players per entrant of
// the kind), so that no door stores what another refuses. Pointers are
// the file's.
func sameChecksAsTheAPI(f tournamentfile.File) []FieldError {
	ft := f.Tournament
	in := TournamentInput{Name: ft.Name, Date: ft.Date, Level: ft.Level, Ruleset: ft.Ruleset, Kind: ft.Kind,
		RoundsPlanned: ft.RoundsPlanned, HandsPerRound: ft.HandsPerRound, VPTable: ft.VPTable}
	t, errs := in.toDomain()
	for i := range errs {
		errs[i].Pointer = "/tournament" + errs[i].Pointer
	}
	if len(f.Entrants) == 0 {
		return errs
	}
	entrants := make([]EntrantInput, len(f.Entrants))
	for i, e := range f.Entrants {
		entrants[i] = EntrantInput{ID: e.ID, Team: e.Team}
		if e.Club != "" {
			entrants[i].Club = new(e.Club)
		}
		for _, p := range e.Players {
			entrants[i].Players = append(entrants[i].Players, domain.Player{Name: p.Name, Membership: p.Membership})
		}
	}
	_, more := entrantsToDomain(entrants, t.Kind, nil)
	return append(errs, more...)
}
