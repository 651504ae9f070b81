-- Core schema: clubs, tokens, tournaments, entrants, rounds and score sheets.
-- The SQLite twin of migrations/postgres/00001_init.sql; a test in store/
-- compares the two (tables, columns, keys, constraint names; the *_type_check
-- constraints stand in for PostgreSQL column types). STRICT tables
-- reject values of the wrong type; timestamps are RFC 3339 text, dates
-- 'YYYY-MM-DD', booleans 0/1, JSON text checked with json_valid.

-- +goose Up
CREATE TABLE clubs (
    id         TEXT NOT NULL PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    CONSTRAINT clubs_id_check CHECK (id <> ''),
    CONSTRAINT clubs_name_check CHECK (name <> '')
) STRICT;

-- Only the SHA-256 of a token is stored: a leaked database yields no usable token.
CREATE TABLE tokens (
    id         TEXT NOT NULL PRIMARY KEY,
    hash       TEXT NOT NULL UNIQUE,
    role       TEXT NOT NULL,
    name       TEXT NOT NULL,
    club_id    TEXT REFERENCES clubs (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    CONSTRAINT tokens_hash_check CHECK (length(hash) = 64),
    CONSTRAINT tokens_role_check CHECK (role IN ('club', 'referee', 'federation', 'admin')),
    CONSTRAINT tokens_name_check CHECK (name <> ''),
    -- API §4: a club token acts for its own club, so it must name one.
    CONSTRAINT tokens_club_check CHECK (role <> 'club' OR club_id IS NOT NULL)
) STRICT;

CREATE TABLE tournaments (
    id              TEXT    NOT NULL PRIMARY KEY,
    name            TEXT    NOT NULL,
    play_date       TEXT    NOT NULL,
    -- RESTRICT: a club that has tournaments cannot be deleted.
    club_id         TEXT    REFERENCES clubs (id) ON DELETE RESTRICT,
    level           TEXT    NOT NULL,
    ruleset         TEXT    NOT NULL,
    kind            TEXT    NOT NULL,
    rounds_planned  INTEGER NOT NULL,
    hands_per_round INTEGER NOT NULL,
    vp_table        TEXT,
    created_at      TEXT    NOT NULL,
    CONSTRAINT tournaments_id_check CHECK (id <> ''),
    CONSTRAINT tournaments_name_check CHECK (name <> ''),
    CONSTRAINT tournaments_play_date_type_check CHECK (date(play_date) IS play_date),
    CONSTRAINT tournaments_level_check CHECK (level IN ('club', 'provincial', 'regional', 'national', 'event')),
    CONSTRAINT tournaments_ruleset_check CHECK (ruleset IN ('fitab-2025', 'fitab-int', 'fibur-ita', 'fibur-int')),
    CONSTRAINT tournaments_kind_check CHECK (kind IN ('pairs', 'individual', 'teams', 'international')),
    CONSTRAINT tournaments_rounds_planned_check CHECK (rounds_planned >= 1),
    -- API §1: a match has 1..4 hands.
    CONSTRAINT tournaments_hands_per_round_check CHECK (hands_per_round BETWEEN 1 AND 4),
    CONSTRAINT tournaments_vp_table_check CHECK (vp_table IN ('fitab-2', 'fitab-3', 'fitab-4', 'fibur-2', 'fibur-3', 'fibur-4', 'fibur-teams'))
) STRICT;
CREATE INDEX tournaments_club_id_idx ON tournaments (club_id);

CREATE TABLE referee_assignments (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    referee_name  TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    PRIMARY KEY (tournament_id, referee_name),
    CONSTRAINT referee_assignments_referee_name_check CHECK (referee_name <> '')
) STRICT;
CREATE INDEX referee_assignments_referee_name_idx ON referee_assignments (referee_name);

-- Entrant ids are the tournament's own pair/player/team numbers (API §4.1).
CREATE TABLE entrants (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    id            TEXT NOT NULL,
    team          TEXT NOT NULL,
    club          TEXT NOT NULL,
    PRIMARY KEY (tournament_id, id),
    CONSTRAINT entrants_id_check CHECK (id <> '')
) STRICT;

CREATE TABLE entrant_players (
    tournament_id TEXT    NOT NULL,
    entrant_id    TEXT    NOT NULL,
    position      INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    membership    TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, entrant_id, position),
    FOREIGN KEY (tournament_id, entrant_id) REFERENCES entrants (tournament_id, id) ON DELETE CASCADE,
    CONSTRAINT entrant_players_position_check CHECK (position >= 1),
    CONSTRAINT entrant_players_name_check CHECK (name <> '')
) STRICT;

CREATE TABLE rounds (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    hands_planned INTEGER NOT NULL,
    phase         TEXT    NOT NULL,
    state         TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, number),
    CONSTRAINT rounds_number_check CHECK (number >= 1),
    CONSTRAINT rounds_hands_planned_check CHECK (hands_planned BETWEEN 1 AND 4),
    CONSTRAINT rounds_phase_check CHECK (phase IN ('mitchell', 'danese', 'danese_modificato', 'italiana', 'gironi')),
    CONSTRAINT rounds_state_check CHECK (state IN ('playing', 'sheets_delivered', 'standings_published', 'next_pairing_published'))
) STRICT;

-- Entrant references are NO ACTION, checked at commit (DEFERRABLE INITIALLY
-- DEFERRED): deleting a tournament cascades through rounds and entrants in
-- whatever order (PostgreSQL checks an immediate NO ACTION before the other
-- cascade has removed the tables), while an entrant who sat at a table
-- cannot be deleted on its own.
CREATE TABLE round_tables (
    tournament_id TEXT    NOT NULL,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    ns_entrant    TEXT    NOT NULL,
    eo_entrant    TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, round_no, table_no),
    FOREIGN KEY (tournament_id, round_no) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, ns_entrant) REFERENCES entrants (tournament_id, id) DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (tournament_id, eo_entrant) REFERENCES entrants (tournament_id, id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT round_tables_table_no_check CHECK (table_no >= 1),
    CONSTRAINT round_tables_lines_check CHECK (ns_entrant <> eo_entrant)
) STRICT;

CREATE TABLE round_byes (
    tournament_id TEXT    NOT NULL,
    round_no      INTEGER NOT NULL,
    entrant_id    TEXT    NOT NULL,
    position      INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round_no, entrant_id),
    FOREIGN KEY (tournament_id, round_no) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, entrant_id) REFERENCES entrants (tournament_id, id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT round_byes_position_check CHECK (position >= 1)
) STRICT;

-- One score sheet per table and round, exactly as entered (API §1): numbers
-- the players wrote are not range-checked here, the validator reports them.
-- header_* are the sheet's own tournament/round/table fields (0 or '' when
-- the sheet does not give them), kept apart from the key so a sheet reads
-- back exactly as it was written.
CREATE TABLE sheets (
    id                INTEGER NOT NULL PRIMARY KEY,
    tournament_id     TEXT    NOT NULL,
    round_no          INTEGER NOT NULL,
    table_no          INTEGER NOT NULL,
    version           INTEGER NOT NULL,
    ruleset           TEXT    NOT NULL,
    hands_planned     INTEGER NOT NULL,
    kind              TEXT    NOT NULL,
    vp_table          TEXT,
    header_tournament TEXT    NOT NULL,
    header_round      INTEGER NOT NULL,
    header_table      INTEGER NOT NULL,
    ns_id             TEXT    NOT NULL,
    ns_players        TEXT    NOT NULL,
    eo_id             TEXT    NOT NULL,
    eo_players        TEXT    NOT NULL,
    first_dealer      TEXT    NOT NULL,
    late_ns           INTEGER NOT NULL,
    late_eo           INTEGER NOT NULL,
    written_ns_total  INTEGER,
    written_ns_mp     INTEGER,
    written_ns_vp     INTEGER,
    written_eo_total  INTEGER,
    written_eo_mp     INTEGER,
    written_eo_vp     INTEGER,
    cells             TEXT,
    report_json       TEXT    NOT NULL,
    created_at        TEXT    NOT NULL,
    updated_at        TEXT    NOT NULL,
    UNIQUE (tournament_id, round_no, table_no),
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE,
    CONSTRAINT sheets_version_check CHECK (version >= 1),
    CONSTRAINT sheets_ruleset_check CHECK (ruleset IN ('fitab-2025', 'fitab-int', 'fibur-ita', 'fibur-int')),
    -- 0: not given on the sheet.
    CONSTRAINT sheets_hands_planned_check CHECK (hands_planned BETWEEN 0 AND 4),
    -- '': not given (API §1 default pairs).
    CONSTRAINT sheets_kind_check CHECK (kind IN ('', 'pairs', 'individual', 'teams', 'international')),
    CONSTRAINT sheets_vp_table_check CHECK (vp_table IN ('fitab-2', 'fitab-3', 'fitab-4', 'fibur-2', 'fibur-3', 'fibur-4', 'fibur-teams')),
    CONSTRAINT sheets_header_check CHECK (header_round >= 0 AND header_table >= 0),
    CONSTRAINT sheets_first_dealer_check CHECK (first_dealer IN ('', 'n', 'e', 's', 'o')),
    -- RULES §7: lateness only ever credits points.
    CONSTRAINT sheets_late_check CHECK (late_ns >= 0 AND late_eo >= 0),
    CONSTRAINT sheets_json_type_check CHECK (json_valid(ns_players) AND json_valid(eo_players) AND json_valid(cells) IS NOT 0 AND json_valid(report_json))
) STRICT;

-- One row per hand (API §1: 1..4 hands, in play order). Optional fields are
-- NULL when the sheet does not give them. burrachi is the breakdown as
-- canonical text "type:count,..." sorted by type ('' = given and empty).
CREATE TABLE sheet_hands (
    sheet_id                    INTEGER NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
    position                    INTEGER NOT NULL,
    hand_end                    TEXT    NOT NULL,
    lost_count                  INTEGER NOT NULL,
    ns_base                     INTEGER NOT NULL,
    ns_points                   INTEGER NOT NULL,
    ns_total                    INTEGER,
    ns_running_total            INTEGER,
    ns_burrachi                 TEXT,
    ns_closed                   INTEGER,
    ns_pozzetto                 TEXT    NOT NULL,
    ns_table_points             INTEGER,
    ns_hand_points              INTEGER,
    ns_pozzetto_unplayed_points INTEGER,
    ns_penalty_points           INTEGER,
    eo_base                     INTEGER NOT NULL,
    eo_points                   INTEGER NOT NULL,
    eo_total                    INTEGER,
    eo_running_total            INTEGER,
    eo_burrachi                 TEXT,
    eo_closed                   INTEGER,
    eo_pozzetto                 TEXT    NOT NULL,
    eo_table_points             INTEGER,
    eo_hand_points              INTEGER,
    eo_pozzetto_unplayed_points INTEGER,
    eo_penalty_points           INTEGER,
    PRIMARY KEY (sheet_id, position),
    CONSTRAINT sheet_hands_position_check CHECK (position BETWEEN 1 AND 4),
    CONSTRAINT sheet_hands_hand_end_check CHECK (hand_end IN ('', 'closed', 'stock_exhausted', 'time_out', 'stall', 'interrupted')),
    CONSTRAINT sheet_hands_pozzetto_check CHECK (ns_pozzetto IN ('', 'taken', 'not_taken', 'taken_not_played')
                                             AND eo_pozzetto IN ('', 'taken', 'not_taken', 'taken_not_played')),
    -- SQLite has no regular expressions: allowed characters, a type first, a count last.
    CONSTRAINT sheet_hands_burrachi_check CHECK ((ns_burrachi = '' OR (ns_burrachi GLOB '[a-z_]*[0-9]' AND ns_burrachi NOT GLOB '*[^a-z_:,0-9]*'))
                                             AND (eo_burrachi = '' OR (eo_burrachi GLOB '[a-z_]*[0-9]' AND eo_burrachi NOT GLOB '*[^a-z_:,0-9]*'))),
    CONSTRAINT sheet_hands_booleans_type_check CHECK (lost_count IN (0, 1) AND ns_closed IN (0, 1) AND eo_closed IN (0, 1))
) STRICT;

-- Idempotency-Key of POST .../sheet/hands (API §4.1): a replayed key appends nothing.
CREATE TABLE idempotency_keys (
    sheet_id      INTEGER NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
    idem_key      TEXT    NOT NULL,
    hand_position INTEGER NOT NULL,
    created_at    TEXT    NOT NULL,
    PRIMARY KEY (sheet_id, idem_key),
    CONSTRAINT idempotency_keys_idem_key_check CHECK (length(idem_key) BETWEEN 1 AND 255),
    CONSTRAINT idempotency_keys_hand_position_check CHECK (hand_position >= 1)
) STRICT;

-- +goose Down
DROP TABLE idempotency_keys;
DROP TABLE sheet_hands;
DROP TABLE sheets;
DROP TABLE round_byes;
DROP TABLE round_tables;
DROP TABLE rounds;
DROP TABLE entrant_players;
DROP TABLE entrants;
DROP TABLE referee_assignments;
DROP TABLE tournaments;
DROP TABLE tokens;
DROP TABLE clubs;
