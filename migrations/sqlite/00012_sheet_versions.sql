-- Issue 10: the history of a sheet and the undo of an import.
-- The SQLite twin of migrations/postgres/00012_sheet_versions.sql (see
-- there). SQLite cannot drop a table's UNIQUE constraint: imports is
-- rebuilt with the new columns and the content hash unique among the
-- imports still in force (a partial index). No table references imports
-- before this migration.

-- +goose Up
CREATE TABLE imports_new (
    id             INTEGER NOT NULL PRIMARY KEY,
    tournament_id  TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    content_sha256 TEXT    NOT NULL,
    filename       TEXT    NOT NULL,
    report_json    TEXT    NOT NULL,
    created_at     TEXT    NOT NULL,
    created_by     TEXT    NOT NULL,
    sheets         TEXT,
    undone_at      TEXT,
    undone_by      TEXT,
    CONSTRAINT imports_content_sha256_check CHECK (length(content_sha256) = 64),
    CONSTRAINT imports_json_type_check CHECK (json_valid(report_json) AND json_valid(sheets) IS NOT 0)
) STRICT;
INSERT INTO imports_new (id, tournament_id, content_sha256, filename, report_json, created_at, created_by)
    SELECT id, tournament_id, content_sha256, filename, report_json, created_at, created_by FROM imports;
DROP TABLE imports;
ALTER TABLE imports_new RENAME TO imports;
CREATE UNIQUE INDEX imports_live_content_idx ON imports (tournament_id, content_sha256) WHERE undone_at IS NULL;
CREATE INDEX imports_tournament_idx ON imports (tournament_id, id);

CREATE TABLE sheet_versions (
    id            INTEGER NOT NULL PRIMARY KEY,
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    version       INTEGER NOT NULL,
    sheet         TEXT    NOT NULL,
    source        TEXT    NOT NULL,
    import_id     INTEGER REFERENCES imports (id) ON DELETE CASCADE,
    actor         TEXT    NOT NULL,
    replaced_at   TEXT    NOT NULL,
    CONSTRAINT sheet_versions_version_check CHECK (version >= 1),
    CONSTRAINT sheet_versions_source_check CHECK (source IN ('put', 'import', 'correction', 'hands', 'undo')),
    CONSTRAINT sheet_versions_import_check CHECK ((source IN ('import', 'undo')) = (import_id IS NOT NULL)),
    CONSTRAINT sheet_versions_json_type_check CHECK (json_valid(sheet))
) STRICT;
CREATE INDEX sheet_versions_sheet_idx ON sheet_versions (tournament_id, round_no, table_no, id);
CREATE INDEX sheet_versions_import_idx ON sheet_versions (import_id) WHERE import_id IS NOT NULL;

-- +goose Down
DROP TABLE sheet_versions;
CREATE TABLE imports_old (
    id             INTEGER NOT NULL PRIMARY KEY,
    tournament_id  TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    content_sha256 TEXT    NOT NULL,
    filename       TEXT    NOT NULL,
    report_json    TEXT    NOT NULL,
    created_at     TEXT    NOT NULL,
    created_by     TEXT    NOT NULL,
    UNIQUE (tournament_id, content_sha256),
    CONSTRAINT imports_content_sha256_check CHECK (length(content_sha256) = 64),
    CONSTRAINT imports_json_type_check CHECK (json_valid(report_json))
) STRICT;
INSERT INTO imports_old (id, tournament_id, content_sha256, filename, report_json, created_at, created_by)
    SELECT id, tournament_id, content_sha256, filename, report_json, created_at, created_by FROM imports WHERE undone_at IS NULL;
DROP TABLE imports;
ALTER TABLE imports_old RENAME TO imports;
