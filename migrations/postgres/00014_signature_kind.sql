-- Which signature each row of sheet_confirmations is (UI.md §6, FITAB
-- art. 19 / FIBur-INT art. 18): kind 'end' is the scorer's line, which
-- ended the sheet; 'confirm' the other line's confirmation, which delivers
-- it. signed_by is the line whose own act stored the row: the row's line
-- when that line signed on the phone at confirmed_at, the other line when
-- a confirmation alone ended and delivered the sheet (the scorer's line
-- then has no signature time of its own).

-- +goose Up
ALTER TABLE sheet_confirmations ADD COLUMN kind text NOT NULL DEFAULT 'confirm'
    CONSTRAINT sheet_confirmations_kind_check CHECK (kind IN ('end', 'confirm'));
ALTER TABLE sheet_confirmations ADD COLUMN signed_by text NOT NULL DEFAULT 'ns'
    CONSTRAINT sheet_confirmations_signed_by_check CHECK (signed_by IN ('ns', 'eo'));
UPDATE sheet_confirmations SET signed_by = line;
-- Rows stored before: a lone row is an end; of two rows at different
-- times the earlier is the end. Two rows at the same time cannot say which
-- line confirmed: they stay two signatures at that time, as shown before.
UPDATE sheet_confirmations AS c SET kind = 'end'
WHERE NOT EXISTS (
    SELECT 1 FROM sheet_confirmations o
    WHERE o.tournament_id = c.tournament_id AND o.round_no = c.round_no AND o.table_no = c.table_no
      AND o.line <> c.line AND o.confirmed_at <= c.confirmed_at
);
ALTER TABLE sheet_confirmations ALTER COLUMN kind DROP DEFAULT;
ALTER TABLE sheet_confirmations ALTER COLUMN signed_by DROP DEFAULT;

-- +goose Down
ALTER TABLE sheet_confirmations DROP COLUMN signed_by;
ALTER TABLE sheet_confirmations DROP COLUMN kind;
