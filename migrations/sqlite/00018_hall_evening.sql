-- Issue 22: the instance's settings, kept table codes, table cards.
-- The instance's settings that an admin changes from /admin (issue 22).
-- The SQLite twin of migrations/postgres/00018_hall_evening.sql.

-- +goose Up
CREATE TABLE site_settings (
    key        TEXT NOT NULL PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CONSTRAINT site_settings_value_check CHECK (length(value) <= 2048)
) STRICT;

-- A live link's codes, kept so that every opening of the print page shows
-- the same ones.
ALTER TABLE entry_links ADD COLUMN code TEXT;
ALTER TABLE entry_links ADD COLUMN short TEXT;

-- Table cards (UI.md §9): one code per physical table for the tournament.
CREATE TABLE table_cards (
    id            TEXT    NOT NULL PRIMARY KEY,
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    table_no      INTEGER NOT NULL,
    code_hash     TEXT    NOT NULL UNIQUE,
    short_hash    TEXT    NOT NULL,
    code          TEXT    NOT NULL,
    short         TEXT    NOT NULL,
    issued_by     TEXT    NOT NULL,
    created_at    TEXT    NOT NULL,
    revoked_at    TEXT,
    CONSTRAINT table_cards_table_check CHECK (table_no >= 1),
    CONSTRAINT table_cards_code_hash_check CHECK (length(code_hash) = 64),
    CONSTRAINT table_cards_short_hash_check CHECK (length(short_hash) = 64)
) STRICT;
CREATE UNIQUE INDEX table_cards_live_table_idx ON table_cards (tournament_id, table_no) WHERE revoked_at IS NULL;
CREATE INDEX table_cards_short_idx ON table_cards (short_hash);

-- The hall's clock (UI.md §9) and the hands entered after time was called.
CREATE TABLE round_clocks (
    tournament_id TEXT    NOT NULL,
    round_no      INTEGER NOT NULL,
    minutes       INTEGER NOT NULL,
    started_at    TEXT    NOT NULL,
    started_by    TEXT    NOT NULL,
    called_at     TEXT,
    PRIMARY KEY (tournament_id, round_no),
    FOREIGN KEY (tournament_id, round_no) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    CONSTRAINT round_clocks_minutes_check CHECK (minutes BETWEEN 1 AND 600)
) STRICT;
CREATE TABLE late_hands (
    tournament_id TEXT    NOT NULL,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    position      INTEGER NOT NULL,
    marked_at     TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, round_no, table_no, position),
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE,
    CONSTRAINT late_hands_position_check CHECK (position BETWEEN 1 AND 4)
) STRICT;

-- +goose Down
DROP TABLE late_hands;
DROP TABLE round_clocks;
DROP TABLE table_cards;
ALTER TABLE entry_links DROP COLUMN short;
ALTER TABLE entry_links DROP COLUMN code;
DROP TABLE site_settings;
