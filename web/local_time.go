package web

import (
	"time"
	_ "time/tzdata" // the zone below on machines without a zone database

	"segnapunti/domain"
)

// Times on pages are the hall's (issue 22): a tournament's pages show its
// time zone's wall clock (Europe/Rome unless set), not UTC; datetime
// attributes keep the instant. Pages of no tournament use hallZone.

// hallZoneName is the zone of the times of pages of no tournament.
const hallZoneName = domain.DefaultTimeZone

// hallZone is hallZoneName, or UTC if it cannot be loaded (it always can:
// time/tzdata is embedded).
var hallZone = func() *time.Location {
	if z, err := time.LoadLocation(hallZoneName); err == nil {
		return z
	}
	return time.UTC
}()

// localTime is t on the hall's clock (the template function "local"):
// zone is the page's tournament's (Page.Zone), nil for hallZone.
func localTime(zone *time.Location, t time.Time) time.Time {
	if zone == nil {
		zone = hallZone
	}
	return t.In(zone)
}
