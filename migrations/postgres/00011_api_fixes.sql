-- Issue 10: when a token was last used (GET /v1/tokens), and the hash of
-- the request an Idempotency-Key was first used with (a key reused with a
-- different request is refused, not replayed).

-- +goose Up
ALTER TABLE tokens ADD COLUMN last_used_at timestamptz;
ALTER TABLE idempotency_keys ADD COLUMN request_hash text;

-- +goose Down
ALTER TABLE idempotency_keys DROP COLUMN request_hash;
ALTER TABLE tokens DROP COLUMN last_used_at;
