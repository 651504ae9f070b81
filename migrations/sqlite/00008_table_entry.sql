-- Table entry (UI.md §6, API §4.2). The SQLite twin of
-- migrations/postgres/00008_table_entry.sql.

-- +goose Up
CREATE TABLE entry_links (
    id            TEXT    NOT NULL PRIMARY KEY,
    tournament_id TEXT    NOT NULL,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    code_hash     TEXT    NOT NULL UNIQUE,
    short_hash    TEXT    NOT NULL,
    issued_by     TEXT    NOT NULL,
    created_at    TEXT    NOT NULL,
    revoked_at    TEXT,
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE,
    CONSTRAINT entry_links_code_hash_check CHECK (length(code_hash) = 64),
    CONSTRAINT entry_links_short_hash_check CHECK (length(short_hash) = 64)
) STRICT;
CREATE UNIQUE INDEX entry_links_live_table_idx ON entry_links (tournament_id, round_no, table_no) WHERE revoked_at IS NULL;
CREATE UNIQUE INDEX entry_links_live_short_idx ON entry_links (short_hash) WHERE revoked_at IS NULL;

CREATE TABLE sheet_confirmations (
    tournament_id TEXT    NOT NULL,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    line          TEXT    NOT NULL,
    entrant       TEXT    NOT NULL,
    via           TEXT    NOT NULL,
    confirmed_at  TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, round_no, table_no, line),
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE,
    CONSTRAINT sheet_confirmations_line_check CHECK (line IN ('ns', 'eo'))
) STRICT;

CREATE TABLE referee_calls (
    tournament_id TEXT    NOT NULL,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    called_at     TEXT    NOT NULL,
    answered_at   TEXT,
    PRIMARY KEY (tournament_id, round_no, table_no),
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE
) STRICT;

-- +goose Down
DROP TABLE referee_calls;
DROP TABLE sheet_confirmations;
DROP TABLE entry_links;
