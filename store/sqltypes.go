package store

import (
	"database/sql/driver"
	"fmt"
	"time"
)

// instant is a point in time in a timestamptz (PostgreSQL) or TEXT (SQLite)
// column. It is written as RFC 3339 text in UTC with microseconds, which
// PostgreSQL parses and which sorts as text in SQLite; it reads either the
// driver's time.Time or that text.
type instant time.Time

const instantLayout = "2006-01-02T15:04:05.000000Z07:00"

func (i instant) Value() (driver.Value, error) {
	return time.Time(i).UTC().Format(instantLayout), nil
}

func (i *instant) Scan(v any) error {
	switch v := v.(type) {
	case time.Time:
		*i = instant(v.UTC())
		return nil
	case string:
		return i.parse(v)
	case []byte:
		return i.parse(string(v))
	}
	return fmt.Errorf("store: cannot read %T as a timestamp", v)
}

func (i instant) time() time.Time { return time.Time(i) }

func (i *instant) parse(s string) error {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			*i = instant(t.UTC())
			return nil
		}
	}
	return fmt.Errorf("store: cannot read %q as a timestamp", s)
}

// day is a calendar date in a date (PostgreSQL) or TEXT (SQLite) column,
// written and read as "2006-01-02".
type day string

const dayLayout = time.DateOnly

func dayOf(t time.Time) day { return day(t.Format(dayLayout)) }

func (d day) time() (time.Time, error) { return time.Parse(dayLayout, string(d)) }

func (d day) Value() (driver.Value, error) { return string(d), nil }

func (d *day) Scan(v any) error {
	switch v := v.(type) {
	case time.Time:
		*d = dayOf(v)
		return nil
	case string:
		*d = day(v)
		return nil
	case []byte:
		*d = day(v)
		return nil
	}
	return fmt.Errorf("store: cannot read %T as a date", v)
}
