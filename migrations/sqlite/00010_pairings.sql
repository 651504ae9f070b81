-- The SQLite twin of migrations/postgres/00010_pairings.sql (which says
-- what the columns and the table hold).

-- +goose Up
ALTER TABLE rounds ADD COLUMN system TEXT NOT NULL DEFAULT '';
ALTER TABLE rounds ADD COLUMN seed TEXT;

CREATE TABLE proposed_rounds (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    hands_planned INTEGER NOT NULL,
    phase         TEXT    NOT NULL,
    system        TEXT    NOT NULL,
    seed          TEXT,
    seating       TEXT    NOT NULL,
    created_at    TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, number),
    CONSTRAINT proposed_rounds_number_check CHECK (number >= 1),
    CONSTRAINT proposed_rounds_system_check CHECK (system <> '')
) STRICT;

-- +goose Down
DROP TABLE proposed_rounds;
ALTER TABLE rounds DROP COLUMN seed;
ALTER TABLE rounds DROP COLUMN system;
