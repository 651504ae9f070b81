-- Issue 22, prizes: the players' optional sex and birth year (for the
-- ladies' and seniors' categories) and a tournament's prize categories.
-- migrations/sqlite/00020_prizes.sql is the SQLite twin.
--
-- entrant_players.sex: 'F', 'M' or '' (not given); birth_year: 0 (not
-- given) or the year.
-- prize_categories: one row per category, position its order of value
-- (the first the most valuable; domain.AwardPrizes). born_by is the
-- seniors' year, club the host club's name, attribute/value a custom
-- category's test; cumulative: the prize does not use up the entrant's
-- one prize.

-- +goose Up
ALTER TABLE entrant_players ADD COLUMN sex text NOT NULL DEFAULT '';
ALTER TABLE entrant_players ADD COLUMN birth_year integer NOT NULL DEFAULT 0;
ALTER TABLE entrant_players ADD CONSTRAINT entrant_players_sex_check CHECK (sex IN ('', 'F', 'M'));
ALTER TABLE entrant_players ADD CONSTRAINT entrant_players_birth_year_check CHECK (birth_year = 0 OR birth_year BETWEEN 1900 AND 2100);

CREATE TABLE prize_categories (
    tournament_id text    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    id            text    NOT NULL,
    position      integer NOT NULL,
    kind          text    NOT NULL,
    label         text    NOT NULL,
    places        integer NOT NULL,
    born_by       integer NOT NULL DEFAULT 0,
    club          text    NOT NULL DEFAULT '',
    attribute     text    NOT NULL DEFAULT '',
    value         text    NOT NULL DEFAULT '',
    cumulative    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (tournament_id, id),
    CONSTRAINT prize_categories_position_key UNIQUE (tournament_id, position),
    CONSTRAINT prize_categories_id_check CHECK (id <> ''),
    CONSTRAINT prize_categories_places_check CHECK (places BETWEEN 1 AND 100)
);

-- +goose Down
DROP TABLE prize_categories;
ALTER TABLE entrant_players DROP CONSTRAINT entrant_players_birth_year_check;
ALTER TABLE entrant_players DROP CONSTRAINT entrant_players_sex_check;
ALTER TABLE entrant_players DROP COLUMN birth_year;
ALTER TABLE entrant_players DROP COLUMN sex;
