package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"segnapunti/domain"
)

// The hall's clock (UI.md §9): a round's clock, started by the
// secretary, and the time called (the time-out of FITAB art. 15); the
// hands entered after time was called are marked.

// RoundClock is a round's clock.
type RoundClock struct {
	Round    int
	Minutes  int
	Started  time.Time
	Called   *time.Time // time called by hand, before the minutes ran out
	Starter  string
	Deadline time.Time // Started + Minutes
}

type roundClockRow struct {
	TournamentID string   `gorm:"column:tournament_id;primaryKey"`
	RoundNo      int      `gorm:"column:round_no;primaryKey"`
	Minutes      int      `gorm:"column:minutes"`
	Started      instant  `gorm:"column:started_at"`
	StartedBy    string   `gorm:"column:started_by"`
	Called       *instant `gorm:"column:called_at"`
}

func (roundClockRow) TableName() string { return "round_clocks" }

func (r roundClockRow) toDomain() RoundClock {
	c := RoundClock{Round: r.RoundNo, Minutes: r.Minutes, Started: r.Started.time(), Starter: r.StartedBy}
	c.Deadline = c.Started.Add(time.Duration(r.Minutes) * time.Minute)
	if r.Called != nil {
		t := r.Called.time()
		c.Called = &t
	}
	return c
}

// StartClock (re)starts a round's clock for minutes from now; a time
// called before is forgotten. An unknown round is ErrNotFound.
func (db *DB) StartClock(ctx context.Context, tournamentID string, round, minutes int, by string) (RoundClock, error) {
	row := roundClockRow{TournamentID: tournamentID, RoundNo: round, Minutes: minutes, Started: instant(db.stamp()), StartedBy: by}
	err := db.gorm.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "tournament_id"}, {Name: "round_no"}},
		DoUpdates: clause.Assignments(map[string]any{"minutes": minutes, "started_at": row.Started, "started_by": by, "called_at": nil}),
	}).Create(&row).Error
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return RoundClock{}, errorf(domain.ErrNotFound, "no round %d in tournament %s", round, tournamentID)
	}
	if err != nil {
		return RoundClock{}, translate(err, "start clock")
	}
	return row.toDomain(), nil
}

// CallTime calls time on a round's running clock now (FITAB art. 15). A
// round without a clock is ErrNotFound.
func (db *DB) CallTime(ctx context.Context, tournamentID string, round int) (RoundClock, error) {
	now := instant(db.stamp())
	q := db.gorm.WithContext(ctx)
	res := q.Model(&roundClockRow{}).Where("tournament_id = ? AND round_no = ? AND called_at IS NULL", tournamentID, round).Update("called_at", now)
	if res.Error != nil {
		return RoundClock{}, translate(res.Error, "call time")
	}
	return db.Clock(ctx, tournamentID, round)
}

// Clock returns a round's clock; none started is ErrNotFound.
func (db *DB) Clock(ctx context.Context, tournamentID string, round int) (RoundClock, error) {
	var row roundClockRow
	err := db.gorm.WithContext(ctx).Where("tournament_id = ? AND round_no = ?", tournamentID, round).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return RoundClock{}, errorf(domain.ErrNotFound, "round %d has no clock", round)
	}
	if err != nil {
		return RoundClock{}, translate(err, "read clock")
	}
	return row.toDomain(), nil
}

type lateHandRow struct {
	TournamentID string  `gorm:"column:tournament_id;primaryKey"`
	RoundNo      int     `gorm:"column:round_no;primaryKey"`
	TableNo      int     `gorm:"column:table_no;primaryKey"`
	Position     int     `gorm:"column:position;primaryKey"`
	Marked       instant `gorm:"column:marked_at"`
}

func (lateHandRow) TableName() string { return "late_hands" }

// MarkLateHand marks hand position (1-based) of a table's sheet as entered
// after time was called; marking again changes nothing.
func (db *DB) MarkLateHand(ctx context.Context, tournamentID string, round, table, position int) error {
	row := lateHandRow{TournamentID: tournamentID, RoundNo: round, TableNo: table, Position: position, Marked: instant(db.stamp())}
	err := db.gorm.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error
	return translate(err, "mark late hand")
}

// UnmarkLateHands removes the marks of hands from position on (the hands
// were removed).
func (db *DB) UnmarkLateHands(ctx context.Context, tournamentID string, round, table, from int) error {
	err := db.gorm.WithContext(ctx).Where("tournament_id = ? AND round_no = ? AND table_no = ? AND position >= ?", tournamentID, round, table, from).
		Delete(&lateHandRow{}).Error
	return translate(err, "unmark late hands")
}

// LateHands lists the marked positions of a table's sheet.
func (db *DB) LateHands(ctx context.Context, tournamentID string, round, table int) (map[int]bool, error) {
	var pos []int
	err := db.readDB(ctx).Model(&lateHandRow{}).Where("tournament_id = ? AND round_no = ? AND table_no = ?", tournamentID, round, table).
		Pluck("position", &pos).Error
	if err != nil {
		return nil, translate(err, "read late hands")
	}
	out := make(map[int]bool, len(pos))
	for _, p := range pos {
		out[p] = true
	}
	return out, nil
}
