-- Issue 10: the history of a sheet and the undo of an import.
--
-- sheet_versions keeps every stored sheet that a later write replaced (a
-- PUT, an import run with replace, an applied correction, the undo of an
-- import), copied in the replacing transaction: "sheet" is the row and its
-- hands as they were ({"row": {...sheets columns...}, "hands": [...]}), so
-- an undone import restores exactly what it replaced. Hand-by-hand appends
-- only add to a sheet and are not copied.
--
-- An import may be undone while its rounds are being played: the row is
-- kept (the audit trail) with undone_at/undone_by, and the same file may
-- then be uploaded again, so the content hash is unique among the imports
-- still in force only.

-- +goose Up
CREATE TABLE sheet_versions (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tournament_id text        NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no      integer     NOT NULL,
    table_no      integer     NOT NULL,
    version       integer     NOT NULL,
    sheet         json        NOT NULL,
    source        text        NOT NULL,
    import_id     bigint      REFERENCES imports (id) ON DELETE CASCADE,
    actor         text        NOT NULL,
    replaced_at   timestamptz NOT NULL,
    CONSTRAINT sheet_versions_version_check CHECK (version >= 1),
    CONSTRAINT sheet_versions_source_check CHECK (source IN ('put', 'import', 'correction', 'hands', 'undo')),
    CONSTRAINT sheet_versions_import_check CHECK ((source IN ('import', 'undo')) = (import_id IS NOT NULL))
);
CREATE INDEX sheet_versions_sheet_idx ON sheet_versions (tournament_id, round_no, table_no, id);
CREATE INDEX sheet_versions_import_idx ON sheet_versions (import_id) WHERE import_id IS NOT NULL;

-- sheets: what the import wrote, [{"round", "table", "status", "version"}]
-- (created or replaced), for its undo; NULL for imports recorded before.
ALTER TABLE imports ADD COLUMN sheets json;
ALTER TABLE imports ADD COLUMN undone_at timestamptz;
ALTER TABLE imports ADD COLUMN undone_by text;
ALTER TABLE imports DROP CONSTRAINT imports_tournament_id_content_sha256_key;
CREATE UNIQUE INDEX imports_live_content_idx ON imports (tournament_id, content_sha256) WHERE undone_at IS NULL;
CREATE INDEX imports_tournament_idx ON imports (tournament_id, id);

-- +goose Down
DROP INDEX imports_tournament_idx;
DROP INDEX imports_live_content_idx;
DELETE FROM imports WHERE undone_at IS NOT NULL;
ALTER TABLE imports ADD CONSTRAINT imports_tournament_id_content_sha256_key UNIQUE (tournament_id, content_sha256);
ALTER TABLE imports DROP COLUMN undone_by;
ALTER TABLE imports DROP COLUMN undone_at;
ALTER TABLE imports DROP COLUMN sheets;
DROP TABLE sheet_versions;
