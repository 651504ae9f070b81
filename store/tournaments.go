package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// TournamentFilter narrows ListTournaments; an empty field does not filter.
type TournamentFilter struct {
	ClubID      string
	RefereeName string // only tournaments this referee is assigned to
}

// CreateTournament stores a tournament. An empty ID is generated ("t_" +
// random). An unknown ClubID, a level, ruleset or kind that is not one of
// RULES §2/§10, or rounds/hands out of range are ErrInvalid; an ID already
// taken is ErrConflict.
func (db *DB) CreateTournament(ctx context.Context, t domain.Tournament) (domain.Tournament, error) {
	if t.ID == "" {
		t.ID = newID("t_")
	}
	row := tournamentToRow(t, instant(db.stamp()))
	if err := db.gorm.WithContext(ctx).Create(&row).Error; err != nil {
		switch {
		case errors.Is(err, gorm.ErrDuplicatedKey):
			return domain.Tournament{}, errorf(domain.ErrConflict, "tournament %q already exists", t.ID)
		case errors.Is(err, gorm.ErrForeignKeyViolated):
			return domain.Tournament{}, errorf(domain.ErrInvalid, "club %q does not exist", t.ClubID)
		}
		return domain.Tournament{}, translate(err, "create tournament")
	}
	return row.toDomain()
}

// GetTournament returns one tournament; unknown is ErrNotFound.
// It is served from the tournament facts cache (facts.go).
func (db *DB) GetTournament(ctx context.Context, id string) (domain.Tournament, error) {
	return db.cachedTournament(ctx, id)
}

func getTournament(ctx context.Context, g *gorm.DB, id string) (domain.Tournament, error) {
	var row tournamentRow
	err := g.WithContext(ctx).Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return domain.Tournament{}, errorf(domain.ErrNotFound, "tournament %q", id)
	}
	if err != nil {
		return domain.Tournament{}, translate(err, "get tournament")
	}
	return row.toDomain()
}

// ListTournaments returns the tournaments the filter selects, by date then
// id.
func (db *DB) ListTournaments(ctx context.Context, f TournamentFilter) ([]domain.Tournament, error) {
	q := db.gorm.WithContext(ctx).Model(&tournamentRow{})
	if f.ClubID != "" {
		q = q.Where("club_id = ?", f.ClubID)
	}
	if f.RefereeName != "" {
		q = q.Where("id IN (?)", db.gorm.Model(&refereeRow{}).Select("tournament_id").Where("referee_name = ?", f.RefereeName))
	}
	var rows []tournamentRow
	if err := q.Order("play_date, id").Find(&rows).Error; err != nil {
		return nil, translate(err, "list tournaments")
	}
	out := make([]domain.Tournament, 0, len(rows))
	for _, r := range rows {
		t, err := r.toDomain()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// tournamentExists fails with ErrNotFound when the tournament is unknown.
func tournamentExists(ctx context.Context, tx *gorm.DB, id string) error {
	var n int64
	if err := tx.WithContext(ctx).Model(&tournamentRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return translate(err, "find tournament")
	}
	if n == 0 {
		return errorf(domain.ErrNotFound, "tournament %q", id)
	}
	return nil
}

// AddEntrants enters es in the tournament, all or nothing: an id already
// entered is ErrConflict and nothing is written; an id given twice, an
// empty id or an empty player name is ErrInvalid.
func (db *DB) AddEntrants(ctx context.Context, tournamentID string, es []domain.Entrant) error {
	seen := make(map[string]bool, len(es))
	ids := make([]string, 0, len(es))
	var entrants []entrantRow
	var players []entrantPlayerRow
	for _, e := range es {
		if seen[e.ID] {
			return errorf(domain.ErrInvalid, "entrant %q given twice", e.ID)
		}
		seen[e.ID] = true
		ids = append(ids, e.ID)
		er, pr := entrantToRows(tournamentID, e)
		entrants = append(entrants, er)
		players = append(players, pr...)
	}
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tournamentExists(ctx, tx, tournamentID); err != nil {
			return err
		}
		if len(entrants) == 0 {
			return nil
		}
		var taken []string
		if err := tx.Model(&entrantRow{}).Where("tournament_id = ? AND id IN ?", tournamentID, ids).
			Order("id").Pluck("id", &taken).Error; err != nil {
			return translate(err, "add entrants")
		}
		if len(taken) > 0 {
			return errorf(domain.ErrConflict, "entrant %s already entered in tournament %s", quoteList(taken), tournamentID)
		}
		// In batches: one INSERT of 10,000 players (7 columns) would pass
		// PostgreSQL's 65,535 parameters (SQLite's 32,766 sooner).
		if err := tx.CreateInBatches(&entrants, 500).Error; err != nil {
			return translate(err, "add entrants")
		}
		if len(players) > 0 {
			if err := tx.CreateInBatches(&players, 500).Error; err != nil {
				return translate(err, "add entrant players")
			}
		}
		if err := rememberPlayers(tx, tournamentID, es); err != nil {
			return err
		}
		return db.touchTournament(tx, tournamentID)
	})
	db.facts.drop(tournamentID)
	return err
}

// ListEntrants returns the tournament's entrants by number (numeric ids in
// numeric order, then the others), each with its players in order. An
// unknown tournament is ErrNotFound.
// One query on the read pool, scanned without gorm (reflection per row
// was most of the entrants page's read).
func (db *DB) ListEntrants(ctx context.Context, tournamentID string) ([]domain.Entrant, error) {
	rows, err := db.readDB(ctx).Raw(`SELECT e.id, e.team, e.club, e.withdrawn_from_round, e.withdrawn_reason,
		COALESCE(p.position, 0), COALESCE(p.name, ''), COALESCE(p.membership, ''), COALESCE(p.sex, ''), COALESCE(p.birth_year, 0)
		FROM entrants e LEFT JOIN entrant_players p ON p.tournament_id = e.tournament_id AND p.entrant_id = e.id
		WHERE e.tournament_id = ? ORDER BY e.id, p.position`, tournamentID).Rows()
	if err != nil {
		return nil, translate(err, "list entrants")
	}
	defer rows.Close()
	var out []domain.Entrant
	for rows.Next() {
		var e domain.Entrant
		var withdrawn sql.NullInt64
		var p domain.Player
		var position int
		if err := rows.Scan(&e.ID, &e.Team, &e.Club, &withdrawn, &e.WithdrawnReason,
			&position, &p.Name, &p.Membership, &p.Sex, &p.BirthYear); err != nil {
			return nil, translate(err, "read entrants")
		}
		if n := len(out); n == 0 || out[n-1].ID != e.ID {
			if withdrawn.Valid {
				r := int(withdrawn.Int64)
				e.WithdrawnFromRound = &r
			}
			out = append(out, e)
		}
		if position > 0 { // an entrant without players has one row, position 0
			last := &out[len(out)-1]
			last.Players = append(last.Players, p)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err, "read entrants")
	}
	if len(out) == 0 {
		if err := tournamentExists(ctx, db.readDB(ctx), tournamentID); err != nil {
			return nil, err
		}
		return []domain.Entrant{}, nil
	}
	slices.SortFunc(out, func(a, b domain.Entrant) int { return compareEntrantIDs(a.ID, b.ID) })
	return out, nil
}

// compareEntrantIDs orders entrant numbers as people do: 2 before 10;
// non-numeric ids after the numeric ones, as text.
func compareEntrantIDs(a, b string) int {
	na, errA := strconv.ParseUint(a, 10, 64)
	nb, errB := strconv.ParseUint(b, 10, 64)
	switch {
	case errA == nil && errB == nil:
		return cmp.Or(cmp.Compare(na, nb), cmp.Compare(a, b))
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return cmp.Compare(a, b)
}

// CreateRound stores a round with its tables and byes in one transaction.
// A number already used is ErrConflict; an unknown tournament is
// ErrNotFound; a table number or bye given twice, an entrant not entered
// or a line playing itself is ErrInvalid. An empty State is playing
// (RULES §10).
func (db *DB) CreateRound(ctx context.Context, tournamentID string, r domain.Round) error {
	tables := map[int]bool{}
	for _, t := range r.Tables {
		if tables[t.Table] {
			return errorf(domain.ErrInvalid, "round %d: table %d given twice", r.Number, t.Table)
		}
		tables[t.Table] = true
	}
	byes := map[string]bool{}
	for _, b := range r.Byes {
		if byes[b] {
			return errorf(domain.ErrInvalid, "round %d: bye of entrant %q given twice", r.Number, b)
		}
		byes[b] = true
	}
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tournamentExists(ctx, tx, tournamentID); err != nil {
			return err
		}
		if err := writeRound(tx, tournamentID, r, false); err != nil {
			return err
		}
		return db.touchTournament(tx, tournamentID)
	})
	db.facts.drop(tournamentID)
	return err
}

// entrantsEntered fails with ErrInvalid naming the entrants of the round's
// tables and byes that are not entered in the tournament.
func entrantsEntered(tx *gorm.DB, tournamentID string, r domain.Round) error {
	var named []string
	for _, t := range r.Tables {
		named = append(named, t.Seated()...)
	}
	named = append(named, r.Byes...)
	if len(named) == 0 {
		return nil
	}
	var entered []string
	if err := tx.Model(&entrantRow{}).Where("tournament_id = ? AND id IN ?", tournamentID, named).Pluck("id", &entered).Error; err != nil {
		return translate(err, "find entrants")
	}
	var missing []string
	for _, id := range named {
		if !slices.Contains(entered, id) && !slices.Contains(missing, id) {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return errorf(domain.ErrInvalid, "round %d: entrant %s not entered in tournament %s", r.Number, quoteList(missing), tournamentID)
	}
	return nil
}

// GetRound returns one round with its tables and byes; an unknown
// tournament or round is ErrNotFound.
func (db *DB) GetRound(ctx context.Context, tournamentID string, n int) (domain.Round, error) {
	rounds, err := db.rounds(ctx, tournamentID, &n)
	if err != nil {
		return domain.Round{}, err
	}
	if len(rounds) == 0 {
		if err := tournamentExists(ctx, db.gorm, tournamentID); err != nil {
			return domain.Round{}, err
		}
		return domain.Round{}, errorf(domain.ErrNotFound, "round %d of tournament %s", n, tournamentID)
	}
	return rounds[0], nil
}

// GetRoundTable returns round n with only the given table in Tables (and
// no byes): what a sheet write needs, in two small queries instead of the
// whole round. An unknown round is ErrNotFound; a round without that table
// comes back with no tables.
// It is served from the tournament facts cache (facts.go).
func (db *DB) GetRoundTable(ctx context.Context, tournamentID string, n, table int) (domain.Round, error) {
	return db.cachedRoundTable(ctx, tournamentID, n, table)
}

func (db *DB) loadRoundTable(ctx context.Context, tournamentID string, n, table int) (roundRow, []roundTableRow, error) {
	var round roundRow
	err := db.gorm.WithContext(ctx).Where("tournament_id = ? AND number = ?", tournamentID, n).Take(&round).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		if err := tournamentExists(ctx, db.gorm, tournamentID); err != nil {
			return round, nil, err
		}
		return round, nil, errorf(domain.ErrNotFound, "round %d of tournament %s", n, tournamentID)
	}
	if err != nil {
		return round, nil, translate(err, "get round")
	}
	var tables []roundTableRow
	if err := db.gorm.WithContext(ctx).Where("tournament_id = ? AND round_no = ? AND table_no = ?", tournamentID, n, table).
		Find(&tables).Error; err != nil {
		return round, nil, translate(err, "get round table")
	}
	return round, tables, nil
}

// ListRounds returns the tournament's rounds by number; an unknown
// tournament is ErrNotFound.
func (db *DB) ListRounds(ctx context.Context, tournamentID string) ([]domain.Round, error) {
	if err := tournamentExists(ctx, db.gorm, tournamentID); err != nil {
		return nil, err
	}
	return db.rounds(ctx, tournamentID, nil)
}

// rounds loads the rounds (one, or all when n is nil) in three queries.
func (db *DB) rounds(ctx context.Context, tournamentID string, n *int) ([]domain.Round, error) {
	scope := func(q *gorm.DB, col string) *gorm.DB {
		q = q.WithContext(ctx).Where("tournament_id = ?", tournamentID)
		if n != nil {
			q = q.Where(col+" = ?", *n)
		}
		return q
	}
	var rounds []roundRow
	if err := scope(db.gorm, "number").Order("number").Find(&rounds).Error; err != nil {
		return nil, translate(err, "list rounds")
	}
	if len(rounds) == 0 {
		return []domain.Round{}, nil
	}
	var tables []roundTableRow
	if err := scope(db.gorm, "round_no").Order("round_no, table_no").Find(&tables).Error; err != nil {
		return nil, translate(err, "list round tables")
	}
	var byes []roundByeRow
	if err := scope(db.gorm, "round_no").Order("round_no, position").Find(&byes).Error; err != nil {
		return nil, translate(err, "list round byes")
	}
	tablesOf := map[int][]roundTableRow{}
	for _, t := range tables {
		tablesOf[t.RoundNo] = append(tablesOf[t.RoundNo], t)
	}
	byesOf := map[int][]roundByeRow{}
	for _, b := range byes {
		byesOf[b.RoundNo] = append(byesOf[b.RoundNo], b)
	}
	out := make([]domain.Round, len(rounds))
	for i, r := range rounds {
		out[i] = roundToDomain(r, tablesOf[r.Number], byesOf[r.Number])
	}
	return out, nil
}

// SetRoundState moves a round from one state to the next, compare-and-set:
// a round not in state from is ErrConflict (someone else moved it); a move
// that is not forward is ErrInvalid (RULES §10: a round only moves forward);
// an unknown round is ErrNotFound.
func (db *DB) SetRoundState(ctx context.Context, tournamentID string, n int, from, to domain.RoundState) error {
	if _, err := domain.ParseRoundState(string(from)); err != nil {
		return err
	}
	if _, err := domain.ParseRoundState(string(to)); err != nil {
		return err
	}
	if !from.CanMoveTo(to) {
		return errorf(domain.ErrInvalid, "round %d cannot go from %s to %s: a round only moves forward", n, from, to)
	}
	// The round lock (exclusive) waits for the sheet writes in flight: a
	// sheet never lands in a round after it was marked delivered.
	var affected int64
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := db.lockRound(tx, tournamentID, n); err != nil {
			return err
		}
		res := tx.Model(&roundRow{}).
			Where("tournament_id = ? AND number = ? AND state = ?", tournamentID, n, string(from)).
			Update("state", string(to))
		if res.Error != nil {
			return translate(res.Error, "set round state")
		}
		affected = res.RowsAffected
		if affected == 1 {
			return db.touchTournament(tx, tournamentID)
		}
		return nil
	})
	db.facts.drop(tournamentID)
	if err != nil {
		return err
	}
	if affected == 1 {
		return nil
	}
	current, err := db.GetRound(ctx, tournamentID, n)
	if err != nil {
		return err
	}
	return errorf(domain.ErrConflict, "round %d of tournament %s is %s, not %s", n, tournamentID, current.State, from)
}

func quoteList(ids []string) string {
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += ", "
		}
		out += strconv.Quote(id)
	}
	return out
}
