-- Issue 26, at most four row writes per stored sheet: the match result
-- (migration 00005) becomes columns of its sheet's row, written by the
-- statement that writes the sheet, so a sheet write no longer writes a
-- row of its own for the result. res_version is the sheet version the
-- result was computed from (NULL: no result yet; store.Open computes the
-- missing and stale ones, as before). Every existing result is copied
-- into its sheet; match_results becomes a view with the old table's
-- columns over the sheets that have a result, so its readers (standings,
-- the standings stamp, exports) read it unchanged.
-- migrations/sqlite/00022_results_in_sheets.sql is the SQLite twin.

-- +goose Up
ALTER TABLE sheets
    ADD COLUMN res_version integer,
    ADD COLUMN res_ns_total bigint,
    ADD COLUMN res_ns_mp bigint,
    ADD COLUMN res_ns_vp bigint,
    ADD COLUMN res_eo_total bigint,
    ADD COLUMN res_eo_mp bigint,
    ADD COLUMN res_eo_vp bigint,
    ADD COLUMN res_computed_ns_total bigint,
    ADD COLUMN res_computed_ns_mp bigint,
    ADD COLUMN res_computed_ns_vp bigint,
    ADD COLUMN res_computed_eo_total bigint,
    ADD COLUMN res_computed_eo_mp bigint,
    ADD COLUMN res_computed_eo_vp bigint,
    ADD COLUMN res_differs boolean,
    ADD COLUMN res_kind text,
    ADD CONSTRAINT sheets_res_version_check CHECK (res_version >= 1),
    ADD CONSTRAINT sheets_res_kind_check CHECK (res_kind IN ('', 'sum', 'inversion', 'transcription', 'other')),
    ADD CONSTRAINT sheets_res_differs_check CHECK (res_differs = (res_kind <> '')),
    -- a result has all its columns or none
    ADD CONSTRAINT sheets_res_check CHECK ((res_version IS NULL) = (res_ns_total IS NULL) AND
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
UPDATE sheets s SET res_version = m.sheet_version,
    res_ns_total = m.ns_total,
    res_ns_mp = m.ns_mp,
    res_ns_vp = m.ns_vp,
    res_eo_total = m.eo_total,
    res_eo_mp = m.eo_mp,
    res_eo_vp = m.eo_vp,
    res_computed_ns_total = m.computed_ns_total,
    res_computed_ns_mp = m.computed_ns_mp,
    res_computed_ns_vp = m.computed_ns_vp,
    res_computed_eo_total = m.computed_eo_total,
    res_computed_eo_mp = m.computed_eo_mp,
    res_computed_eo_vp = m.computed_eo_vp,
    res_differs = m.differs,
    res_kind = m.kind
    FROM match_results m WHERE m.sheet_id = s.id;
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
-- The readers of the view read the results from this index alone (an
-- index-only scan where the pages are all-visible), as narrow as the
-- table was: the sheet rows are wide (report, cells). The standings stamp
-- (count and sum of res_version) and MatchResultsSeated read nothing else.
CREATE INDEX sheets_results_idx ON sheets (tournament_id, round_no, table_no)
    INCLUDE (res_version, res_ns_total, res_ns_mp, res_ns_vp, res_eo_total, res_eo_mp, res_eo_vp,
        res_computed_ns_total, res_computed_ns_mp, res_computed_ns_vp, res_computed_eo_total, res_computed_eo_mp, res_computed_eo_vp, res_differs, res_kind)
    WHERE res_version IS NOT NULL;
-- That index-only scan reads the heap for every page the visibility map
-- does not mark all-visible, which only VACUUM marks: 40,000 results read
-- 5,000 heap pages (38 ms) instead of 820 index pages (11 ms) until
-- autovacuum comes. Its defaults wait for 20% of the table to change; a
-- round writes one eighth of an 8-round tournament's sheets, so the
-- results of the rounds before would wait for it. At 2% the finished
-- rounds are all-visible within autovacuum's naptime (a minute) and the
-- vacuum itself skips the pages that already are.
ALTER TABLE sheets SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);
-- The view is read-only, as SQLite's views are: PostgreSQL would let a
-- DELETE through this simple view delete sheets.
-- +goose StatementBegin
CREATE FUNCTION match_results_read_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'match_results is a view of sheets (migration 00022): write the sheet''s res_* columns';
END
$$;
-- +goose StatementEnd
CREATE TRIGGER match_results_read_only INSTEAD OF INSERT OR UPDATE OR DELETE ON match_results
    FOR EACH ROW EXECUTE FUNCTION match_results_read_only();

-- +goose Down
DROP VIEW match_results;
DROP FUNCTION match_results_read_only();
DROP INDEX sheets_results_idx;
ALTER TABLE sheets RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_insert_scale_factor);
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
INSERT INTO match_results (sheet_id, tournament_id, round_no, table_no, sheet_version,
    ns_total, ns_mp, ns_vp, eo_total, eo_mp, eo_vp,
    computed_ns_total, computed_ns_mp, computed_ns_vp, computed_eo_total, computed_eo_mp, computed_eo_vp,
    differs, kind)
SELECT id, tournament_id, round_no, table_no, res_version,
    res_ns_total, res_ns_mp, res_ns_vp, res_eo_total, res_eo_mp, res_eo_vp,
    res_computed_ns_total, res_computed_ns_mp, res_computed_ns_vp, res_computed_eo_total, res_computed_eo_mp, res_computed_eo_vp,
    res_differs, res_kind
  FROM sheets WHERE res_version IS NOT NULL;
ALTER TABLE sheets DROP COLUMN res_version,
    DROP COLUMN res_ns_total,
    DROP COLUMN res_ns_mp,
    DROP COLUMN res_ns_vp,
    DROP COLUMN res_eo_total,
    DROP COLUMN res_eo_mp,
    DROP COLUMN res_eo_vp,
    DROP COLUMN res_computed_ns_total,
    DROP COLUMN res_computed_ns_mp,
    DROP COLUMN res_computed_ns_vp,
    DROP COLUMN res_computed_eo_total,
    DROP COLUMN res_computed_eo_mp,
    DROP COLUMN res_computed_eo_vp,
    DROP COLUMN res_differs,
    DROP COLUMN res_kind;
