-- Individual tournaments (RULES §11, API §4.2; issue 13 item 4): a line of
-- an individual tournament is two players. migrations/sqlite/
-- 00013_individual_lines.sql is the SQLite twin.
-- round_tables: ns_entrant/eo_entrant stay the line's entrant (pairs,
-- teams) or its first player (individual); ns2_entrant/eo2_entrant are the
-- second players, NULL for pairs and teams and for the rounds of individual
-- tournaments stored before this migration (one player a line), which stay
-- readable as they were. match_results keeps one row per table: the
-- standings join round_tables and credit both players of a line.
-- sheets: ns_ids/eo_ids are a line's "ids" as written on an individual
-- sheet (a JSON array of entrant ids, as text), NULL when the sheet gives
-- none (every sheet stored before this migration).

-- +goose Up
ALTER TABLE round_tables ADD COLUMN ns2_entrant text;
ALTER TABLE round_tables ADD COLUMN eo2_entrant text;
ALTER TABLE round_tables ADD CONSTRAINT round_tables_ns2_fkey FOREIGN KEY (tournament_id, ns2_entrant)
    REFERENCES entrants (tournament_id, id) DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE round_tables ADD CONSTRAINT round_tables_eo2_fkey FOREIGN KEY (tournament_id, eo2_entrant)
    REFERENCES entrants (tournament_id, id) DEFERRABLE INITIALLY DEFERRED;
-- Both lines have a second player or neither; the four players differ.
ALTER TABLE round_tables ADD CONSTRAINT round_tables_players_check CHECK (
    (ns2_entrant IS NULL AND eo2_entrant IS NULL)
    OR (ns2_entrant IS NOT NULL AND eo2_entrant IS NOT NULL
        AND ns2_entrant NOT IN (ns_entrant, eo_entrant, eo2_entrant)
        AND eo2_entrant NOT IN (ns_entrant, eo_entrant)));
CREATE INDEX round_tables_ns2_idx ON round_tables (tournament_id, ns2_entrant) WHERE ns2_entrant IS NOT NULL;
CREATE INDEX round_tables_eo2_idx ON round_tables (tournament_id, eo2_entrant) WHERE eo2_entrant IS NOT NULL;

ALTER TABLE sheets ADD COLUMN ns_ids text;
ALTER TABLE sheets ADD COLUMN eo_ids text;

-- +goose Down
ALTER TABLE sheets DROP COLUMN eo_ids;
ALTER TABLE sheets DROP COLUMN ns_ids;
DROP INDEX round_tables_eo2_idx;
DROP INDEX round_tables_ns2_idx;
ALTER TABLE round_tables DROP CONSTRAINT round_tables_players_check;
ALTER TABLE round_tables DROP CONSTRAINT round_tables_eo2_fkey;
ALTER TABLE round_tables DROP CONSTRAINT round_tables_ns2_fkey;
ALTER TABLE round_tables DROP COLUMN eo2_entrant;
ALTER TABLE round_tables DROP COLUMN ns2_entrant;
