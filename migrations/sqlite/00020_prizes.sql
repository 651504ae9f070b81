-- Issue 22, prizes: the players' optional sex and birth year and a
-- tournament's prize categories.
-- The SQLite twin of migrations/postgres/00020_prizes.sql (see there).

-- +goose Up
ALTER TABLE entrant_players ADD COLUMN sex TEXT NOT NULL DEFAULT ''
    CONSTRAINT entrant_players_sex_check CHECK (sex IN ('', 'F', 'M'));
ALTER TABLE entrant_players ADD COLUMN birth_year INTEGER NOT NULL DEFAULT 0
    CONSTRAINT entrant_players_birth_year_check CHECK (birth_year = 0 OR birth_year BETWEEN 1900 AND 2100);

CREATE TABLE prize_categories (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    id            TEXT    NOT NULL,
    position      INTEGER NOT NULL,
    kind          TEXT    NOT NULL,
    label         TEXT    NOT NULL,
    places        INTEGER NOT NULL,
    born_by       INTEGER NOT NULL DEFAULT 0,
    club          TEXT    NOT NULL DEFAULT '',
    attribute     TEXT    NOT NULL DEFAULT '',
    value         TEXT    NOT NULL DEFAULT '',
    cumulative    INTEGER NOT NULL DEFAULT 0 CHECK (cumulative IN (0, 1)),
    PRIMARY KEY (tournament_id, id),
    UNIQUE (tournament_id, position),
    CONSTRAINT prize_categories_id_check CHECK (id <> ''),
    CONSTRAINT prize_categories_places_check CHECK (places BETWEEN 1 AND 100)
) STRICT;

-- +goose Down
DROP TABLE prize_categories;
ALTER TABLE entrant_players DROP COLUMN birth_year;
ALTER TABLE entrant_players DROP COLUMN sex;
