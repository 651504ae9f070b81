-- Core schema: clubs, tokens, tournaments, entrants, rounds and score sheets.
-- migrations/sqlite/00001_init.sql is the same schema for SQLite; a test in
-- store/ compares the two (tables, columns, keys, constraint names).
-- Enumerations follow domain/ (RULES §2, §5, §10; API §4); every CHECK is
-- named <table>_<what>_check so both databases report the same name.

-- +goose Up
CREATE TABLE clubs (
    id         text        NOT NULL PRIMARY KEY,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL,
    CONSTRAINT clubs_id_check CHECK (id <> ''),
    CONSTRAINT clubs_name_check CHECK (name <> '')
);

-- Only the SHA-256 of a token is stored: a leaked database yields no usable token.
CREATE TABLE tokens (
    id         text        NOT NULL PRIMARY KEY,
    hash       text        NOT NULL UNIQUE,
    role       text        NOT NULL,
    name       text        NOT NULL,
    club_id    text        REFERENCES clubs (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    CONSTRAINT tokens_hash_check CHECK (length(hash) = 64),
    CONSTRAINT tokens_role_check CHECK (role IN ('club', 'referee', 'federation', 'admin')),
    CONSTRAINT tokens_name_check CHECK (name <> ''),
    -- API §4: a club token acts for its own club, so it must name one.
    CONSTRAINT tokens_club_check CHECK (role <> 'club' OR club_id IS NOT NULL)
);

CREATE TABLE tournaments (
    id              text        NOT NULL PRIMARY KEY,
    name            text        NOT NULL,
    play_date       date        NOT NULL,
    -- RESTRICT: a club that has tournaments cannot be deleted.
    club_id         text        REFERENCES clubs (id) ON DELETE RESTRICT,
    level           text        NOT NULL,
    ruleset         text        NOT NULL,
    kind            text        NOT NULL,
    rounds_planned  integer     NOT NULL,
    hands_per_round integer     NOT NULL,
    vp_table        text,
    created_at      timestamptz NOT NULL,
    CONSTRAINT tournaments_id_check CHECK (id <> ''),
    CONSTRAINT tournaments_name_check CHECK (name <> ''),
    CONSTRAINT tournaments_level_check CHECK (level IN ('club', 'provincial', 'regional', 'national', 'event')),
    CONSTRAINT tournaments_ruleset_check CHECK (ruleset IN ('fitab-2025', 'fitab-int', 'fibur-ita', 'fibur-int')),
    CONSTRAINT tournaments_kind_check CHECK (kind IN ('pairs', 'individual', 'teams', 'international')),
    CONSTRAINT tournaments_rounds_planned_check CHECK (rounds_planned >= 1),
    -- API §1: a match has 1..4 hands.
    CONSTRAINT tournaments_hands_per_round_check CHECK (hands_per_round BETWEEN 1 AND 4),
    CONSTRAINT tournaments_vp_table_check CHECK (vp_table IN ('fitab-2', 'fitab-3', 'fitab-4', 'fibur-2', 'fibur-3', 'fibur-4', 'fibur-teams'))
);
CREATE INDEX tournaments_club_id_idx ON tournaments (club_id);

CREATE TABLE referee_assignments (
    tournament_id text        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    referee_name  text        NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, referee_name),
    CONSTRAINT referee_assignments_referee_name_check CHECK (referee_name <> '')
);
CREATE INDEX referee_assignments_referee_name_idx ON referee_assignments (referee_name);

-- Entrant ids are the tournament's own pair/player/team numbers (API §4.1).
CREATE TABLE entrants (
    tournament_id text NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    id            text NOT NULL,
    team          text NOT NULL,
    club          text NOT NULL,
    PRIMARY KEY (tournament_id, id),
    CONSTRAINT entrants_id_check CHECK (id <> '')
);

CREATE TABLE entrant_players (
    tournament_id text    NOT NULL,
    entrant_id    text    NOT NULL,
    position      integer NOT NULL,
    name          text    NOT NULL,
    membership    text    NOT NULL,
    PRIMARY KEY (tournament_id, entrant_id, position),
    FOREIGN KEY (tournament_id, entrant_id) REFERENCES entrants (tournament_id, id) ON DELETE CASCADE,
    CONSTRAINT entrant_players_position_check CHECK (position >= 1),
    CONSTRAINT entrant_players_name_check CHECK (name <> '')
);

CREATE TABLE rounds (
    tournament_id text    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        integer NOT NULL,
    hands_planned integer NOT NULL,
    phase         text    NOT NULL,
    state         text    NOT NULL,
    PRIMARY KEY (tournament_id, number),
    CONSTRAINT rounds_number_check CHECK (number >= 1),
    CONSTRAINT rounds_hands_planned_check CHECK (hands_planned BETWEEN 1 AND 4),
    CONSTRAINT rounds_phase_check CHECK (phase IN ('mitchell', 'danese', 'danese_modificato', 'italiana', 'gironi')),
    CONSTRAINT rounds_state_check CHECK (state IN ('playing', 'sheets_delivered', 'standings_published', 'next_pairing_published'))
);

-- Entrant references are NO ACTION, checked at commit (DEFERRABLE INITIALLY
-- DEFERRED): deleting a tournament cascades through rounds and entrants in
-- whatever order (PostgreSQL checks an immediate NO ACTION before the other
-- cascade has removed the tables), while an entrant who sat at a table
-- cannot be deleted on its own.
CREATE TABLE round_tables (
    tournament_id text    NOT NULL,
    round_no      integer NOT NULL,
    table_no      integer NOT NULL,
    ns_entrant    text    NOT NULL,
    eo_entrant    text    NOT NULL,
    PRIMARY KEY (tournament_id, round_no, table_no),
    FOREIGN KEY (tournament_id, round_no) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, ns_entrant) REFERENCES entrants (tournament_id, id) DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (tournament_id, eo_entrant) REFERENCES entrants (tournament_id, id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT round_tables_table_no_check CHECK (table_no >= 1),
    CONSTRAINT round_tables_lines_check CHECK (ns_entrant <> eo_entrant)
);

CREATE TABLE round_byes (
    tournament_id text    NOT NULL,
    round_no      integer NOT NULL,
    entrant_id    text    NOT NULL,
    position      integer NOT NULL,
    PRIMARY KEY (tournament_id, round_no, entrant_id),
    FOREIGN KEY (tournament_id, round_no) REFERENCES rounds (tournament_id, number) ON DELETE CASCADE,
    FOREIGN KEY (tournament_id, entrant_id) REFERENCES entrants (tournament_id, id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT round_byes_position_check CHECK (position >= 1)
);

-- One score sheet per table and round, exactly as entered (API §1): numbers
-- the players wrote are not range-checked here, the validator reports them.
-- header_* are the sheet's own tournament/round/table fields (0 or '' when
-- the sheet does not give them), kept apart from the key so a sheet reads
-- back exactly as it was written.
CREATE TABLE sheets (
    id                bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tournament_id     text        NOT NULL,
    round_no          integer     NOT NULL,
    table_no          integer     NOT NULL,
    version           integer     NOT NULL,
    ruleset           text        NOT NULL,
    hands_planned     integer     NOT NULL,
    kind              text        NOT NULL,
    vp_table          text,
    header_tournament text        NOT NULL,
    header_round      integer     NOT NULL,
    header_table      integer     NOT NULL,
    ns_id             text        NOT NULL,
    ns_players        json        NOT NULL,
    eo_id             text        NOT NULL,
    eo_players        json        NOT NULL,
    first_dealer      text        NOT NULL,
    late_ns           bigint      NOT NULL,
    late_eo           bigint      NOT NULL,
    written_ns_total  bigint,
    written_ns_mp     bigint,
    written_ns_vp     bigint,
    written_eo_total  bigint,
    written_eo_mp     bigint,
    written_eo_vp     bigint,
    cells             json,
    report_json       json        NOT NULL,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
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
    CONSTRAINT sheets_late_check CHECK (late_ns >= 0 AND late_eo >= 0)
);

-- One row per hand (API §1: 1..4 hands, in play order). Optional fields are
-- NULL when the sheet does not give them. burrachi is the breakdown as
-- canonical text "type:count,..." sorted by type ('' = given and empty).
CREATE TABLE sheet_hands (
    sheet_id                    bigint  NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
    position                    integer NOT NULL,
    hand_end                    text    NOT NULL,
    lost_count                  boolean NOT NULL,
    ns_base                     bigint  NOT NULL,
    ns_points                   bigint  NOT NULL,
    ns_total                    bigint,
    ns_running_total            bigint,
    ns_burrachi                 text,
    ns_closed                   boolean,
    ns_pozzetto                 text    NOT NULL,
    ns_table_points             bigint,
    ns_hand_points              bigint,
    ns_pozzetto_unplayed_points bigint,
    ns_penalty_points           bigint,
    eo_base                     bigint  NOT NULL,
    eo_points                   bigint  NOT NULL,
    eo_total                    bigint,
    eo_running_total            bigint,
    eo_burrachi                 text,
    eo_closed                   boolean,
    eo_pozzetto                 text    NOT NULL,
    eo_table_points             bigint,
    eo_hand_points              bigint,
    eo_pozzetto_unplayed_points bigint,
    eo_penalty_points           bigint,
    PRIMARY KEY (sheet_id, position),
    CONSTRAINT sheet_hands_position_check CHECK (position BETWEEN 1 AND 4),
    CONSTRAINT sheet_hands_hand_end_check CHECK (hand_end IN ('', 'closed', 'stock_exhausted', 'time_out', 'stall', 'interrupted')),
    CONSTRAINT sheet_hands_pozzetto_check CHECK (ns_pozzetto IN ('', 'taken', 'not_taken', 'taken_not_played')
                                             AND eo_pozzetto IN ('', 'taken', 'not_taken', 'taken_not_played')),
    CONSTRAINT sheet_hands_burrachi_check CHECK (ns_burrachi ~ '^([a-z_]+:[0-9]+(,[a-z_]+:[0-9]+)*)?$'
                                             AND eo_burrachi ~ '^([a-z_]+:[0-9]+(,[a-z_]+:[0-9]+)*)?$')
);

-- Idempotency-Key of POST .../sheet/hands (API §4.1): a replayed key appends nothing.
CREATE TABLE idempotency_keys (
    sheet_id      bigint      NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
    idem_key      text        NOT NULL,
    hand_position integer     NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (sheet_id, idem_key),
    CONSTRAINT idempotency_keys_idem_key_check CHECK (length(idem_key) BETWEEN 1 AND 255),
    CONSTRAINT idempotency_keys_hand_position_check CHECK (hand_position >= 1)
);

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
