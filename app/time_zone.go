package app

import (
	"fmt"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // the zones below on machines without a zone database

	"segnapunti/domain"
)

// A tournament's time zone (issue 22): every time its pages, workbooks and
// CSV show is on its hall's wall clock, Europe/Rome unless set otherwise.
// Instants are stored in UTC; only their display changes.

// zones caches the loaded locations by name (LoadLocation reads and parses
// the embedded database each time).
var zones sync.Map // string → *time.Location

// LoadZone is the location of an IANA zone name; an error for a name the
// zone database does not know. "Local" and "" are refused: the server's own
// zone is nobody's hall.
func LoadZone(name string) (*time.Location, error) {
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location), nil
	}
	if name == "" || name == "Local" || strings.TrimSpace(name) != name || len(name) > 64 {
		return nil, fmt.Errorf("want a time zone name like Europe/Rome, got %q", name)
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("want a time zone name like Europe/Rome, got %q", name)
	}
	zones.Store(name, l)
	return l, nil
}

// TournamentZone is the wall clock of t's times: its zone, or the default
// if the stored name cannot be loaded (it was checked when set).
func TournamentZone(t domain.Tournament) *time.Location {
	if l, err := LoadZone(t.Zone()); err == nil {
		return l
	}
	return DefaultZone()
}

// DefaultZone is domain.DefaultTimeZone's location (UTC if it could not be
// loaded, which with time/tzdata embedded does not happen).
func DefaultZone() *time.Location {
	if l, err := LoadZone(domain.DefaultTimeZone); err == nil {
		return l
	}
	return time.UTC
}

// checkTimeZone is the field error of a time zone member, nil when good.
func checkTimeZone(name string) *FieldError {
	if _, err := LoadZone(name); err != nil {
		f := field("/time_zone", "field.time_zone", name)
		return &f
	}
	return nil
}
