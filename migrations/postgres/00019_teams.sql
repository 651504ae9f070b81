-- Teams (RULES §12.5, API §4.3). migrations/sqlite/00019_teams.sql is the
-- SQLite twin.
--
-- round_tables.match_no: the team match a table belongs to (two tables of
-- a round share it, the same two teams swapped); NULL outside team
-- tournaments.
-- table_lineups: which players of each team sit at a table (FITAB art.
-- 2.2: a team may change its pairs before every match), one row per
-- player by line and position, named by membership number.

-- +goose Up
-- No CHECK on match_no: SQLite cannot add one to an existing table, and
-- both dialects build the same schema (store/migrate_test.go); the service
-- writes NULL or a match number from 1 (domain.ValidateTeamRound).
ALTER TABLE round_tables ADD COLUMN match_no integer;

CREATE TABLE table_lineups (
    tournament_id text    NOT NULL,
    round_no      integer NOT NULL,
    table_no      integer NOT NULL,
    line          text    NOT NULL,
    position      integer NOT NULL,
    membership    text    NOT NULL,
    PRIMARY KEY (tournament_id, round_no, table_no, line, position),
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE,
    CONSTRAINT table_lineups_line_check CHECK (line IN ('ns', 'eo')),
    CONSTRAINT table_lineups_position_check CHECK (position >= 1),
    CONSTRAINT table_lineups_membership_check CHECK (membership <> '')
);

-- +goose Down
DROP TABLE table_lineups;
ALTER TABLE round_tables DROP COLUMN match_no;
