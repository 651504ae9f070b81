package web

import (
	"time"
	_ "time/tzdata" // the zone below on machines without a zone database
)

// Times on pages are the hall's (issue 22): a tournament is played in
// Italy, so pages show Europe/Rome's wall clock, not UTC; datetime
// attributes keep the instant.

// hallZoneName is the zone of every page's times.
const hallZoneName = "Europe/Rome"

// hallZone is hallZoneName, or UTC if it cannot be loaded (it always can:
// time/tzdata is embedded).
var hallZone = func() *time.Location {
	if z, err := time.LoadLocation(hallZoneName); err == nil {
		return z
	}
	return time.UTC
}()

// localTime is t on the hall's clock (the template function "local").
func localTime(t time.Time) time.Time { return t.In(hallZone) }
