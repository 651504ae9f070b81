-- Which signature each row of sheet_confirmations is: kind 'end' (the
-- scorer's line) or 'confirm' (the other line), and signed_by, the line
-- whose own act stored the row.
-- The SQLite twin of migrations/postgres/00014_signature_kind.sql (SQLite
-- keeps the defaults: a column is not altered in place; the store always
-- writes both).

-- +goose Up
ALTER TABLE sheet_confirmations ADD COLUMN kind TEXT NOT NULL DEFAULT 'confirm'
    CONSTRAINT sheet_confirmations_kind_check CHECK (kind IN ('end', 'confirm'));
ALTER TABLE sheet_confirmations ADD COLUMN signed_by TEXT NOT NULL DEFAULT 'ns'
    CONSTRAINT sheet_confirmations_signed_by_check CHECK (signed_by IN ('ns', 'eo'));
UPDATE sheet_confirmations SET signed_by = line;
UPDATE sheet_confirmations AS c SET kind = 'end'
WHERE NOT EXISTS (
    SELECT 1 FROM sheet_confirmations o
    WHERE o.tournament_id = c.tournament_id AND o.round_no = c.round_no AND o.table_no = c.table_no
      AND o.line <> c.line AND o.confirmed_at <= c.confirmed_at
);

-- +goose Down
ALTER TABLE sheet_confirmations DROP COLUMN signed_by;
ALTER TABLE sheet_confirmations DROP COLUMN kind;
