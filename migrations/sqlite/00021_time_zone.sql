-- Issue 22, local time everywhere: a tournament's time zone.
-- The SQLite twin of migrations/postgres/00021_time_zone.sql (see there).

-- +goose Up
ALTER TABLE tournaments ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Europe/Rome'
    CONSTRAINT tournaments_time_zone_check CHECK (time_zone <> '' AND length(time_zone) <= 64);

-- +goose Down
ALTER TABLE tournaments DROP COLUMN time_zone;
