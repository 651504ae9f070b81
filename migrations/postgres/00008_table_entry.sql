-- Table entry (UI.md §6, API §4.2): entry links per table of a round, the
-- two lines' confirmations of a sheet (FITAB art. 19, FIBur-INT art. 18) and
-- the players' "call the referee" flag.

-- +goose Up
-- Only hashes of the codes are kept (SHA-256, hex). A table has at most one
-- live link: re-issuing revokes the previous one. The short typed code is
-- unique among live links.
CREATE TABLE entry_links (
    id            text        NOT NULL PRIMARY KEY,
    tournament_id text        NOT NULL,
    round_no      integer     NOT NULL,
    table_no      integer     NOT NULL,
    code_hash     text        NOT NULL UNIQUE,
    short_hash    text        NOT NULL,
    issued_by     text        NOT NULL,
    created_at    timestamptz NOT NULL,
    revoked_at    timestamptz,
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE,
    CONSTRAINT entry_links_code_hash_check CHECK (length(code_hash) = 64),
    CONSTRAINT entry_links_short_hash_check CHECK (length(short_hash) = 64)
);
CREATE UNIQUE INDEX entry_links_live_table_idx ON entry_links (tournament_id, round_no, table_no) WHERE revoked_at IS NULL;
CREATE UNIQUE INDEX entry_links_live_short_idx ON entry_links (short_hash) WHERE revoked_at IS NULL;

-- One signature per line of a table's sheet: the entrant who signed and when.
CREATE TABLE sheet_confirmations (
    tournament_id text        NOT NULL,
    round_no      integer     NOT NULL,
    table_no      integer     NOT NULL,
    line          text        NOT NULL,
    entrant       text        NOT NULL,
    via           text        NOT NULL,
    confirmed_at  timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, round_no, table_no, line),
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE,
    CONSTRAINT sheet_confirmations_line_check CHECK (line IN ('ns', 'eo'))
);

-- A table's call for the referee; answered_at is set by the referee.
CREATE TABLE referee_calls (
    tournament_id text        NOT NULL,
    round_no      integer     NOT NULL,
    table_no      integer     NOT NULL,
    called_at     timestamptz NOT NULL,
    answered_at   timestamptz,
    PRIMARY KEY (tournament_id, round_no, table_no),
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE
);

-- +goose Down
DROP TABLE referee_calls;
DROP TABLE sheet_confirmations;
DROP TABLE entry_links;
