-- The result of every stored sheet (RULES §8, "the written result counts"),
-- kept beside the sheet so that the standings read one narrow table instead
-- of re-validating every sheet: the official result (the written figures,
-- the empty ones derived: domain.OfficialResult) and the computed one, per
-- line, whether they differ and the kind of error that explains it.
-- Written in the transaction that writes the sheet (put, hand append,
-- import, correction); sheet_version is the sheet version it was computed
-- from. Results need the domain, so this migration cannot backfill them:
-- store.Open recomputes the results of sheets that have none (or an older
-- version) after migrating. The entrants come from round_tables by join,
-- so a result is never credited to a stale seating.
-- tournaments.version is bumped by every change of the tournament's, its
-- rounds' or its entrants' state: caches of those facts are keyed by it.

-- +goose Up
CREATE TABLE match_results (
    sheet_id          bigint  NOT NULL PRIMARY KEY REFERENCES sheets (id) ON DELETE CASCADE,
    tournament_id     text    NOT NULL,
    round_no          integer NOT NULL,
    table_no          integer NOT NULL,
    sheet_version     integer NOT NULL,
    ns_total          bigint  NOT NULL,
    ns_mp             bigint  NOT NULL,
    ns_vp             bigint  NOT NULL,
    eo_total          bigint  NOT NULL,
    eo_mp             bigint  NOT NULL,
    eo_vp             bigint  NOT NULL,
    computed_ns_total bigint  NOT NULL,
    computed_ns_mp    bigint  NOT NULL,
    computed_ns_vp    bigint  NOT NULL,
    computed_eo_total bigint  NOT NULL,
    computed_eo_mp    bigint  NOT NULL,
    computed_eo_vp    bigint  NOT NULL,
    differs           boolean NOT NULL,
    kind              text    NOT NULL,
    CONSTRAINT match_results_sheet_version_check CHECK (sheet_version >= 1),
    CONSTRAINT match_results_kind_check CHECK (kind IN ('', 'sum', 'inversion', 'transcription', 'other')),
    CONSTRAINT match_results_differs_check CHECK (differs = (kind <> ''))
);
CREATE INDEX match_results_round_idx ON match_results (tournament_id, round_no, table_no);

ALTER TABLE tournaments ADD COLUMN version bigint NOT NULL DEFAULT 1;

-- +goose Down
ALTER TABLE tournaments DROP COLUMN version;
DROP TABLE match_results;
