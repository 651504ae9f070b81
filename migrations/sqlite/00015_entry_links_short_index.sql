-- The typed code's lookup among all links, live or revoked: the SQLite
-- twin of migrations/postgres/00015_entry_links_short_index.sql.

-- +goose Up
CREATE INDEX entry_links_short_idx ON entry_links (short_hash);

-- +goose Down
DROP INDEX entry_links_short_idx;
