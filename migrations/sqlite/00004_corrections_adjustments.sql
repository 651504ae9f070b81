-- What the corrections and adjustments services record beyond the columns
-- 00002_audit.sql settled (RULES §7, §9). The SQLite twin of
-- migrations/postgres/00004_corrections_adjustments.sql; a constraint added
-- with a column is written on the column (SQLite has no ADD CONSTRAINT).

-- +goose Up
ALTER TABLE corrections ADD COLUMN ruling_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE corrections ADD COLUMN applied INTEGER NOT NULL DEFAULT 0
    CONSTRAINT corrections_applied_type_check CHECK (applied IN (0, 1))
    CONSTRAINT corrections_applied_check CHECK (NOT applied OR ruling <> 'reject');
ALTER TABLE corrections ADD COLUMN situation TEXT
    CONSTRAINT corrections_situation_json_type_check CHECK (json_valid(situation) IS NOT 0);
ALTER TABLE corrections ADD COLUMN sheet_version INTEGER
    CONSTRAINT corrections_sheet_version_check CHECK (sheet_version >= 1);

ALTER TABLE adjustments ADD COLUMN party TEXT NOT NULL DEFAULT ''
    CONSTRAINT adjustments_party_check CHECK (party IN ('', 'offender', 'innocent', 'both', 'later_opponent'));
ALTER TABLE adjustments ADD COLUMN details TEXT
    CONSTRAINT adjustments_details_json_type_check CHECK (json_valid(details) IS NOT 0);

-- +goose Down
ALTER TABLE adjustments DROP COLUMN details;
ALTER TABLE adjustments DROP COLUMN party;
ALTER TABLE corrections DROP COLUMN sheet_version;
ALTER TABLE corrections DROP COLUMN situation;
ALTER TABLE corrections DROP COLUMN applied;
ALTER TABLE corrections DROP COLUMN ruling_reason;
