-- Generated pairings (RULES §11, API §4.2). migrations/sqlite/00010_pairings.sql
-- is the SQLite twin.
-- A published round records how it was seated: its pairing system ('' for
-- rounds entered before this migration and for manual seatings, read as
-- choice) and, for a draw, the seed so that anyone can replay it (a uint64
-- in decimal: PostgreSQL has no unsigned bigint).
-- A generated round that is not yet published lives in proposed_rounds,
-- not in rounds: no sheet, import or correction can reach it. Publishing
-- moves it into rounds in one transaction; regenerating replaces it.

-- +goose Up
ALTER TABLE rounds ADD COLUMN system text NOT NULL DEFAULT '';
ALTER TABLE rounds ADD COLUMN seed text;

CREATE TABLE proposed_rounds (
    tournament_id text        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        integer     NOT NULL,
    hands_planned integer     NOT NULL,
    phase         text        NOT NULL,
    system        text        NOT NULL,
    seed          text,
    -- the seating as JSON: {"tables": [{"table", "ns", "eo"}], "byes": [...]}
    seating       text        NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, number),
    CONSTRAINT proposed_rounds_number_check CHECK (number >= 1),
    CONSTRAINT proposed_rounds_system_check CHECK (system <> '')
);

-- +goose Down
DROP TABLE proposed_rounds;
ALTER TABLE rounds DROP COLUMN seed;
ALTER TABLE rounds DROP COLUMN system;
