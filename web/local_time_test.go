package web

import (
	"testing"
	"time"
)

// Pages show the hall's clock (Europe/Rome), summer and winter
// time, not UTC.
func TestLocalTimeEuropeRome(t *testing.T) {
	for _, c := range []struct {
		utc  time.Time
		want string
	}{
		{time.Date(2026, 11, 28, 20, 50, 0, 0, time.UTC), "28/11/2026 21:50"}, // CET, UTC+1
		{time.Date(2026, 7, 1, 18, 0, 0, 0, time.UTC), "01/07/2026 20:00"},    // CEST, UTC+2
		{time.Date(2026, 3, 29, 0, 59, 0, 0, time.UTC), "29/03/2026 01:59"},   // the last minute before the change
		{time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC), "29/03/2026 03:00"},    // the change to summer time
	} {
		if got := localTime(nil, c.utc).Format("02/01/2006 15:04"); got != c.want {
			t.Errorf("localTime(%v) = %s, want %s", c.utc, got, c.want)
		}
	}
}

// Issue 22: a tournament's own time zone, across its change of summer
// time (America/New_York: 1 November 2026, 02:00 EDT becomes 01:00 EST).
func TestLocalTimeTournamentZone(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		utc  time.Time
		want string
	}{
		{time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), "01/11/2026 01:30 -0400"}, // EDT
		{time.Date(2026, 11, 1, 6, 30, 0, 0, time.UTC), "01/11/2026 01:30 -0500"}, // EST: the same wall clock an hour later
	} {
		if got := localTime(ny, c.utc).Format("02/01/2006 15:04 -0700"); got != c.want {
			t.Errorf("localTime(New York, %v) = %s, want %s", c.utc, got, c.want)
		}
	}
}
