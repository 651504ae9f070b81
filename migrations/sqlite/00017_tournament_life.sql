-- The SQLite twin of migrations/postgres/00017_tournament_life.sql (which
-- says what the columns and the table hold). SQLite cannot add a CHECK
-- constraint to an existing table; the service writes only what the
-- PostgreSQL constraints allow.

-- +goose Up
ALTER TABLE tournaments ADD COLUMN plan TEXT;
ALTER TABLE tournaments ADD COLUMN interrupted_after_round INTEGER
    CONSTRAINT tournaments_interrupted_check CHECK (interrupted_after_round IS NULL OR interrupted_after_round >= 0);
ALTER TABLE tournaments ADD COLUMN interrupted_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE rounds ADD COLUMN groups TEXT;
ALTER TABLE proposed_rounds ADD COLUMN groups TEXT;
ALTER TABLE rounds ADD COLUMN vacated TEXT;
ALTER TABLE proposed_rounds ADD COLUMN vacated TEXT;
ALTER TABLE entrants ADD COLUMN withdrawn_from_round INTEGER
    CONSTRAINT entrants_withdrawn_check CHECK (withdrawn_from_round IS NULL OR withdrawn_from_round >= 1);
ALTER TABLE entrants ADD COLUMN withdrawn_reason TEXT NOT NULL DEFAULT '';

CREATE TABLE substitutions (
    tournament_id  TEXT    NOT NULL,
    entrant_id     TEXT    NOT NULL,
    from_round     INTEGER NOT NULL,
    out_membership TEXT    NOT NULL,
    in_name        TEXT    NOT NULL,
    in_membership  TEXT    NOT NULL,
    reason         TEXT    NOT NULL,
    created_at     TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, entrant_id, from_round, out_membership),
    FOREIGN KEY (tournament_id, entrant_id) REFERENCES entrants (tournament_id, id) ON DELETE CASCADE,
    CONSTRAINT substitutions_from_round_check CHECK (from_round >= 1),
    CONSTRAINT substitutions_in_name_check CHECK (in_name <> '')
) STRICT;

-- +goose Down
DROP TABLE substitutions;
ALTER TABLE entrants DROP COLUMN withdrawn_reason;
ALTER TABLE entrants DROP COLUMN withdrawn_from_round;
ALTER TABLE proposed_rounds DROP COLUMN vacated;
ALTER TABLE rounds DROP COLUMN vacated;
ALTER TABLE proposed_rounds DROP COLUMN groups;
ALTER TABLE rounds DROP COLUMN groups;
ALTER TABLE tournaments DROP COLUMN interrupted_reason;
ALTER TABLE tournaments DROP COLUMN interrupted_after_round;
ALTER TABLE tournaments DROP COLUMN plan;
