-- Issue 26: the SQLite twin of migrations/postgres/00022_results_in_sheets.sql
-- (which says why). SQLite adds a column with its constraints one at a
-- time; res_kind, added last, carries the CHECKs that name other columns.

-- +goose Up
ALTER TABLE sheets ADD COLUMN res_version INTEGER CONSTRAINT sheets_res_version_check CHECK (res_version >= 1);
ALTER TABLE sheets ADD COLUMN res_ns_total INTEGER;
ALTER TABLE sheets ADD COLUMN res_ns_mp INTEGER;
ALTER TABLE sheets ADD COLUMN res_ns_vp INTEGER;
ALTER TABLE sheets ADD COLUMN res_eo_total INTEGER;
ALTER TABLE sheets ADD COLUMN res_eo_mp INTEGER;
ALTER TABLE sheets ADD COLUMN res_eo_vp INTEGER;
ALTER TABLE sheets ADD COLUMN res_computed_ns_total INTEGER;
ALTER TABLE sheets ADD COLUMN res_computed_ns_mp INTEGER;
ALTER TABLE sheets ADD COLUMN res_computed_ns_vp INTEGER;
ALTER TABLE sheets ADD COLUMN res_computed_eo_total INTEGER;
ALTER TABLE sheets ADD COLUMN res_computed_eo_mp INTEGER;
ALTER TABLE sheets ADD COLUMN res_computed_eo_vp INTEGER;
ALTER TABLE sheets ADD COLUMN res_differs INTEGER
    CONSTRAINT sheets_res_differs_type_check CHECK (res_differs IN (0, 1));
ALTER TABLE sheets ADD COLUMN res_kind TEXT
    CONSTRAINT sheets_res_kind_check CHECK (res_kind IN ('', 'sum', 'inversion', 'transcription', 'other'))
    CONSTRAINT sheets_res_differs_check CHECK (res_differs = (res_kind <> ''))
    CONSTRAINT sheets_res_check CHECK ((res_version IS NULL) = (res_ns_total IS NULL) AND
        (res_version IS NULL) = (res_ns_mp IS NULL) AND
        (res_version IS NULL) = (res_ns_vp IS NULL) AND
        (res_version IS NULL) = (res_eo_total IS NULL) AND
        (res_version IS NULL) = (res_eo_mp IS NULL) AND
        (res_version IS NULL) = (res_eo_vp IS NULL) AND
        (res_version IS NULL) = (res_computed_ns_total IS NULL) AND
        (res_version IS NULL) = (res_computed_ns_mp IS NULL) AND
        (res_version IS NULL) = (res_computed_ns_vp IS NULL) AND
        (res_version IS NULL) = (res_computed_eo_total IS NULL) AND
        (res_version IS NULL) = (res_computed_eo_mp IS NULL) AND
        (res_version IS NULL) = (res_computed_eo_vp IS NULL) AND
        (res_version IS NULL) = (res_differs IS NULL) AND
        (res_version IS NULL) = (res_kind IS NULL));
UPDATE sheets SET (res_version,
    res_ns_total, res_ns_mp, res_ns_vp, res_eo_total, res_eo_mp, res_eo_vp,
    res_computed_ns_total, res_computed_ns_mp, res_computed_ns_vp, res_computed_eo_total, res_computed_eo_mp, res_computed_eo_vp,
    res_differs, res_kind) =
    (SELECT sheet_version, ns_total, ns_mp, ns_vp, eo_total, eo_mp, eo_vp,
        computed_ns_total, computed_ns_mp, computed_ns_vp, computed_eo_total, computed_eo_mp, computed_eo_vp,
        differs, kind
     FROM match_results m WHERE m.sheet_id = sheets.id)
    WHERE id IN (SELECT sheet_id FROM match_results);
DROP TABLE match_results;
CREATE VIEW match_results AS
SELECT id AS sheet_id,
       tournament_id,
       round_no,
       table_no,
       res_version AS sheet_version,
       res_ns_total AS ns_total,
       res_ns_mp AS ns_mp,
       res_ns_vp AS ns_vp,
       res_eo_total AS eo_total,
       res_eo_mp AS eo_mp,
       res_eo_vp AS eo_vp,
       res_computed_ns_total AS computed_ns_total,
       res_computed_ns_mp AS computed_ns_mp,
       res_computed_ns_vp AS computed_ns_vp,
       res_computed_eo_total AS computed_eo_total,
       res_computed_eo_mp AS computed_eo_mp,
       res_computed_eo_vp AS computed_eo_vp,
       res_differs AS differs,
       res_kind AS kind
  FROM sheets WHERE res_version IS NOT NULL;
-- The standings stamp's index (count and sum of res_version per
-- tournament): narrower than PostgreSQL's covering index of the same name,
-- which SQLite (no INCLUDE) would have to keep as 19 key columns, rewritten
-- at every sheet write (a fifth more CPU per embedded write, measured);
-- the other readers of the view read the sheet rows (as fast as with the
-- covering index, measured: docs/performance.md 2026-11-29).
CREATE INDEX sheets_results_idx ON sheets (tournament_id, res_version) WHERE res_version IS NOT NULL;

-- +goose Down
DROP INDEX sheets_results_idx;
DROP VIEW match_results;
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

INSERT INTO match_results (sheet_id, tournament_id, round_no, table_no, sheet_version,
    ns_total, ns_mp, ns_vp, eo_total, eo_mp, eo_vp,
    computed_ns_total, computed_ns_mp, computed_ns_vp, computed_eo_total, computed_eo_mp, computed_eo_vp,
    differs, kind)
SELECT id, tournament_id, round_no, table_no, res_version,
    res_ns_total, res_ns_mp, res_ns_vp, res_eo_total, res_eo_mp, res_eo_vp,
    res_computed_ns_total, res_computed_ns_mp, res_computed_ns_vp, res_computed_eo_total, res_computed_eo_mp, res_computed_eo_vp,
    res_differs, res_kind
  FROM sheets WHERE res_version IS NOT NULL;
ALTER TABLE sheets DROP COLUMN res_kind;
ALTER TABLE sheets DROP COLUMN res_differs;
ALTER TABLE sheets DROP COLUMN res_computed_eo_vp;
ALTER TABLE sheets DROP COLUMN res_computed_eo_mp;
ALTER TABLE sheets DROP COLUMN res_computed_eo_total;
ALTER TABLE sheets DROP COLUMN res_computed_ns_vp;
ALTER TABLE sheets DROP COLUMN res_computed_ns_mp;
ALTER TABLE sheets DROP COLUMN res_computed_ns_total;
ALTER TABLE sheets DROP COLUMN res_eo_vp;
ALTER TABLE sheets DROP COLUMN res_eo_mp;
ALTER TABLE sheets DROP COLUMN res_eo_total;
ALTER TABLE sheets DROP COLUMN res_ns_vp;
ALTER TABLE sheets DROP COLUMN res_ns_mp;
ALTER TABLE sheets DROP COLUMN res_ns_total;
ALTER TABLE sheets DROP COLUMN res_version;
