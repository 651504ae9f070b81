-- The SQLite twin of migrations/postgres/00007_club_players.sql (which
-- says what the table holds and how it is filled).

-- +goose Up
CREATE TABLE club_players (
    club_id    TEXT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    membership TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (club_id, name, membership),
    CONSTRAINT club_players_name_check CHECK (name <> '')
) STRICT;

-- +goose Down
DROP TABLE club_players;
