-- Issue 22, local time everywhere: a tournament's time zone, an IANA name
-- (Europe/Rome by default), the wall clock of every time its pages,
-- workbooks and CSV show. app.TournamentZone loads it; the name is checked
-- there (a zone the time zone database knows), not here.
-- migrations/sqlite/00021_time_zone.sql is the SQLite twin.

-- +goose Up
ALTER TABLE tournaments ADD COLUMN time_zone text NOT NULL DEFAULT 'Europe/Rome';
ALTER TABLE tournaments ADD CONSTRAINT tournaments_time_zone_check CHECK (time_zone <> '' AND length(time_zone) <= 64);

-- +goose Down
ALTER TABLE tournaments DROP CONSTRAINT tournaments_time_zone_check;
ALTER TABLE tournaments DROP COLUMN time_zone;
