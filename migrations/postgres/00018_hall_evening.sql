-- Issue 22, "a real evening in a real hall": the instance's settings,
-- kept table codes, table cards.
--
-- The instance's settings that an admin changes from /admin (issue 22):
-- one row per key. The first is public_url, the address players' phones
-- open (QR codes, printed sheets and links carry it) when the environment
-- does not fix it (SEGNAPUNTI_PUBLIC_URL).
-- migrations/sqlite/00018_hall_evening.sql is the SQLite twin.

-- +goose Up
CREATE TABLE site_settings (
    key        text        NOT NULL PRIMARY KEY,
    value      text        NOT NULL,
    updated_by text        NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT site_settings_value_check CHECK (length(value) <= 2048)
);

-- Print pages that can be previewed (issue 22): a live link's codes are
-- kept so that every opening of the print page shows the same ones
-- (before, only hashes: a second opening could not print them). Links
-- issued earlier have none (NULL) and print as "already printed".
ALTER TABLE entry_links ADD COLUMN code text, ADD COLUMN short text;

-- Table cards (UI.md §9): one code per physical table for the whole
-- tournament; /table/{code} opens that table's current round.
CREATE TABLE table_cards (
    id            text        NOT NULL PRIMARY KEY,
    tournament_id text        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    table_no      integer     NOT NULL,
    code_hash     text        NOT NULL UNIQUE,
    short_hash    text        NOT NULL,
    code          text        NOT NULL,
    short         text        NOT NULL,
    issued_by     text        NOT NULL,
    created_at    timestamptz NOT NULL,
    revoked_at    timestamptz,
    CONSTRAINT table_cards_table_check CHECK (table_no >= 1),
    CONSTRAINT table_cards_code_hash_check CHECK (length(code_hash) = 64),
    CONSTRAINT table_cards_short_hash_check CHECK (length(short_hash) = 64)
);
CREATE UNIQUE INDEX table_cards_live_table_idx ON table_cards (tournament_id, table_no) WHERE revoked_at IS NULL;
CREATE INDEX table_cards_short_idx ON table_cards (short_hash);

-- The hall's clock (issue 22, UI.md §9): a round's clock started by the
-- secretary, and the time called (FITAB art. 15); late_hands marks the
-- hands entered after time was called.
CREATE TABLE round_clocks (
    tournament_id text        NOT NULL,
    round_no      integer     NOT NULL,
    minutes       integer     NOT NULL,
    started_at    timestamptz NOT NULL,
    started_by    text        NOT NULL,
    called_at     timestamptz,
    PRIMARY KEY (tournament_id, round_no),
    FOREIGN KEY (tournament_id, round_no) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    CONSTRAINT round_clocks_minutes_check CHECK (minutes BETWEEN 1 AND 600)
);
CREATE TABLE late_hands (
    tournament_id text        NOT NULL,
    round_no      integer     NOT NULL,
    table_no      integer     NOT NULL,
    position      integer     NOT NULL,
    marked_at     timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, round_no, table_no, position),
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE,
    CONSTRAINT late_hands_position_check CHECK (position BETWEEN 1 AND 4)
);

-- +goose Down
DROP TABLE late_hands;
DROP TABLE round_clocks;
DROP TABLE table_cards;
ALTER TABLE entry_links DROP COLUMN short, DROP COLUMN code;
DROP TABLE site_settings;
