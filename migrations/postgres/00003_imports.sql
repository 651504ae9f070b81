-- Workbook imports (API §4 POST /v1/tournaments/{tid}/imports): the imports
-- table is in 00002_audit.sql. An import writes a thousand sheets at once,
-- each with its cells map and its report as JSON (a few kilobytes a row, so
-- PostgreSQL compresses them out of line), and the import's own report,
-- about a megabyte. lz4 compresses and decompresses them several times
-- faster than the default pglz (measured: a 1,000-sheet import spends about
-- a fifth less CPU in the server). A server built without lz4 keeps pglz:
-- the change is skipped, not failed.

-- +goose Up
-- +goose StatementBegin
DO $$
BEGIN
    EXECUTE 'ALTER TABLE sheets ALTER COLUMN cells SET COMPRESSION lz4, ALTER COLUMN report_json SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE imports ALTER COLUMN report_json SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
    RAISE NOTICE 'lz4 compression is not available; keeping pglz';
END;
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DO $$
BEGIN
    EXECUTE 'ALTER TABLE sheets ALTER COLUMN cells SET COMPRESSION default, ALTER COLUMN report_json SET COMPRESSION default';
    EXECUTE 'ALTER TABLE imports ALTER COLUMN report_json SET COMPRESSION default';
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
    NULL;
END;
$$;
-- +goose StatementEnd
