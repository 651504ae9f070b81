-- The SQLite twin of migrations/postgres/00005_match_results.sql (which
-- says what the table holds and how it is filled).

-- +goose Up
CREATE TABLE match_results (
    sheet_id          INTEGER NOT NULL PRIMARY KEY REFERENCES sheets (id) ON DELETE CASCADE,
    tournament_id     TEXT    NOT NULL,
    round_no          INTEGER NOT NULL,
    table_no          INTEGER NOT NULL,
    sheet_version     INTEGER NOT NULL,
    ns_total          INTEGER NOT NULL,
    ns_mp             INTEGER NOT NULL,
    ns_vp             INTEGER NOT NULL,
    eo_total          INTEGER NOT NULL,
    eo_mp             INTEGER NOT NULL,
    eo_vp             INTEGER NOT NULL,
    computed_ns_total INTEGER NOT NULL,
    computed_ns_mp    INTEGER NOT NULL,
    computed_ns_vp    INTEGER NOT NULL,
    computed_eo_total INTEGER NOT NULL,
    computed_eo_mp    INTEGER NOT NULL,
    computed_eo_vp    INTEGER NOT NULL,
    differs           INTEGER NOT NULL,
    kind              TEXT    NOT NULL,
    CONSTRAINT match_results_sheet_version_check CHECK (sheet_version >= 1),
    CONSTRAINT match_results_kind_check CHECK (kind IN ('', 'sum', 'inversion', 'transcription', 'other')),
    CONSTRAINT match_results_differs_check CHECK (differs = (kind <> '')),
    CONSTRAINT match_results_differs_type_check CHECK (differs IN (0, 1))
) STRICT;
CREATE INDEX match_results_round_idx ON match_results (tournament_id, round_no, table_no);

ALTER TABLE tournaments ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- +goose Down
ALTER TABLE tournaments DROP COLUMN version;
DROP TABLE match_results;
