-- Issue 10: when a token was last used (GET /v1/tokens), and the hash of
-- the request an Idempotency-Key was first used with.
-- The SQLite twin of migrations/postgres/00011_api_fixes.sql.

-- +goose Up
ALTER TABLE tokens ADD COLUMN last_used_at TEXT;
ALTER TABLE idempotency_keys ADD COLUMN request_hash TEXT;

-- +goose Down
ALTER TABLE idempotency_keys DROP COLUMN request_hash;
ALTER TABLE tokens DROP COLUMN last_used_at;
