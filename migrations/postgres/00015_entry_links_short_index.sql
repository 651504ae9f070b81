-- The typed 8-character code is looked up by its hash among ALL links,
-- live or revoked (a revoked code's page says why it no longer works), on
-- every request of the phone page — every hand entered there (issue 11).
-- The unique index on short_hash covers live links only, so that lookup
-- read the whole table: 7.5 ms at 60,000 links, growing with every round
-- of every tournament. This index makes it a few rows.

-- +goose Up
CREATE INDEX entry_links_short_idx ON entry_links (short_hash);

-- +goose Down
DROP INDEX entry_links_short_idx;
