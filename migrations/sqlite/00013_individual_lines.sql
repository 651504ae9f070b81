-- The SQLite twin of migrations/postgres/00013_individual_lines.sql (which
-- says what the columns hold). SQLite cannot add a table constraint to an
-- existing table, nor a composite foreign key with ADD COLUMN: the second
-- players are checked by triggers instead (entered in the tournament, both
-- lines or neither, four different players). Withdrawing an entrant seated
-- as a second player is refused by the store (store/fixes.go), as for the
-- first.

-- +goose Up
ALTER TABLE round_tables ADD COLUMN ns2_entrant TEXT;
ALTER TABLE round_tables ADD COLUMN eo2_entrant TEXT;

-- +goose StatementBegin
CREATE TRIGGER round_tables_players_insert BEFORE INSERT ON round_tables
WHEN NEW.ns2_entrant IS NOT NULL OR NEW.eo2_entrant IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'CHECK constraint failed: round_tables_players_check')
    WHERE NEW.ns2_entrant IS NULL OR NEW.eo2_entrant IS NULL
       OR NEW.ns2_entrant IN (NEW.ns_entrant, NEW.eo_entrant, NEW.eo2_entrant)
       OR NEW.eo2_entrant IN (NEW.ns_entrant, NEW.eo_entrant);
    SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed')
    WHERE NOT EXISTS (SELECT 1 FROM entrants e WHERE e.tournament_id = NEW.tournament_id AND e.id = NEW.ns2_entrant)
       OR NOT EXISTS (SELECT 1 FROM entrants e WHERE e.tournament_id = NEW.tournament_id AND e.id = NEW.eo2_entrant);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER round_tables_players_update BEFORE UPDATE ON round_tables
WHEN NEW.ns2_entrant IS NOT NULL OR NEW.eo2_entrant IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'CHECK constraint failed: round_tables_players_check')
    WHERE NEW.ns2_entrant IS NULL OR NEW.eo2_entrant IS NULL
       OR NEW.ns2_entrant IN (NEW.ns_entrant, NEW.eo_entrant, NEW.eo2_entrant)
       OR NEW.eo2_entrant IN (NEW.ns_entrant, NEW.eo_entrant);
    SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed')
    WHERE NOT EXISTS (SELECT 1 FROM entrants e WHERE e.tournament_id = NEW.tournament_id AND e.id = NEW.ns2_entrant)
       OR NOT EXISTS (SELECT 1 FROM entrants e WHERE e.tournament_id = NEW.tournament_id AND e.id = NEW.eo2_entrant);
END;
-- +goose StatementEnd

CREATE INDEX round_tables_ns2_idx ON round_tables (tournament_id, ns2_entrant) WHERE ns2_entrant IS NOT NULL;
CREATE INDEX round_tables_eo2_idx ON round_tables (tournament_id, eo2_entrant) WHERE eo2_entrant IS NOT NULL;

ALTER TABLE sheets ADD COLUMN ns_ids TEXT;
ALTER TABLE sheets ADD COLUMN eo_ids TEXT;

-- +goose Down
ALTER TABLE sheets DROP COLUMN eo_ids;
ALTER TABLE sheets DROP COLUMN ns_ids;
DROP INDEX round_tables_eo2_idx;
DROP INDEX round_tables_ns2_idx;
DROP TRIGGER round_tables_players_update;
DROP TRIGGER round_tables_players_insert;
ALTER TABLE round_tables DROP COLUMN eo2_entrant;
ALTER TABLE round_tables DROP COLUMN ns2_entrant;
