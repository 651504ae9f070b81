-- The SQLite twin of migrations/postgres/00019_teams.sql (which says what
-- the column and the table hold). SQLite cannot add a CHECK constraint to
-- an existing table; the service writes only what the PostgreSQL
-- constraints allow.

-- +goose Up
ALTER TABLE round_tables ADD COLUMN match_no INTEGER;

CREATE TABLE table_lineups (
    tournament_id TEXT    NOT NULL,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    line          TEXT    NOT NULL,
    position      INTEGER NOT NULL,
    membership    TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, round_no, table_no, line, position),
    FOREIGN KEY (tournament_id, round_no, table_no) REFERENCES round_tables (tournament_id, round_no, table_no) ON DELETE CASCADE,
    CONSTRAINT table_lineups_line_check CHECK (line IN ('ns', 'eo')),
    CONSTRAINT table_lineups_position_check CHECK (position >= 1),
    CONSTRAINT table_lineups_membership_check CHECK (membership <> '')
) STRICT;

-- +goose Down
DROP TABLE table_lineups;
ALTER TABLE round_tables DROP COLUMN match_no;
