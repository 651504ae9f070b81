-- The club player registry (UI.md §3 entrants page): every player a club
-- has entered, with the membership number, offered as the secretary types
-- the next tournament's entrants. Filled in the transaction that adds
-- entrants. migrations/sqlite/00007_club_players.sql is the SQLite twin.

-- +goose Up
CREATE TABLE club_players (
    club_id    text NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    name       text NOT NULL,
    -- '' when the entrant was given without one
    membership text NOT NULL DEFAULT '',
    PRIMARY KEY (club_id, name, membership),
    CONSTRAINT club_players_name_check CHECK (name <> '')
);

-- +goose Down
DROP TABLE club_players;
