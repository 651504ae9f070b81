-- A tournament's life beyond one pairs evening (RULES §12, API §4.3).
-- migrations/sqlite/00017_tournament_life.sql is the SQLite twin.
--
-- tournaments.plan: the plan announced before round 1 (RULES §12.1) as
-- JSON {"first_round": "draw", "phases": [{"from_round": 1, "system":
-- "mitchell"}], "sessions": [3, 2]}; NULL is the default plan (entry_order,
-- one danese phase, one session), which follows rounds_planned.
-- tournaments.interrupted_after_round: FITAB art. 39, the last completed
-- round of a tournament interrupted by force majeure (NULL: not
-- interrupted), with the referee's reason.
-- rounds.groups / proposed_rounds.groups: the groups a gironi round formed
-- (RULES §12.1), JSON [["1","4"],["2","3"]]; NULL for the other rounds.
-- rounds.vacated / proposed_rounds.vacated: the entrants a fixed calendar
-- left alone because their opponent withdrew (RULES §12.3: the bye score,
-- not a rest), JSON ["3"]; NULL for none.
-- entrants.withdrawn_from_round: RULES §12.3, the first round the entrant
-- no longer plays (NULL: not withdrawn), with the reason.
-- substitutions: RULES §12.4, a player replaced from a round on.

-- +goose Up
ALTER TABLE tournaments ADD COLUMN plan text;
ALTER TABLE tournaments ADD COLUMN interrupted_after_round integer;
ALTER TABLE tournaments ADD COLUMN interrupted_reason text NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD CONSTRAINT tournaments_interrupted_check CHECK (interrupted_after_round IS NULL OR interrupted_after_round >= 0);
ALTER TABLE rounds ADD COLUMN groups text;
ALTER TABLE proposed_rounds ADD COLUMN groups text;
ALTER TABLE rounds ADD COLUMN vacated text;
ALTER TABLE proposed_rounds ADD COLUMN vacated text;
ALTER TABLE entrants ADD COLUMN withdrawn_from_round integer;
ALTER TABLE entrants ADD COLUMN withdrawn_reason text NOT NULL DEFAULT '';
ALTER TABLE entrants ADD CONSTRAINT entrants_withdrawn_check CHECK (withdrawn_from_round IS NULL OR withdrawn_from_round >= 1);

CREATE TABLE substitutions (
    tournament_id  text        NOT NULL,
    entrant_id     text        NOT NULL,
    from_round     integer     NOT NULL,
    out_membership text        NOT NULL,
    in_name        text        NOT NULL,
    in_membership  text        NOT NULL,
    reason         text        NOT NULL,
    created_at     timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, entrant_id, from_round, out_membership),
    FOREIGN KEY (tournament_id, entrant_id) REFERENCES entrants (tournament_id, id) ON DELETE CASCADE,
    CONSTRAINT substitutions_from_round_check CHECK (from_round >= 1),
    CONSTRAINT substitutions_in_name_check CHECK (in_name <> '')
);

-- +goose Down
DROP TABLE substitutions;
ALTER TABLE entrants DROP CONSTRAINT entrants_withdrawn_check;
ALTER TABLE entrants DROP COLUMN withdrawn_reason;
ALTER TABLE entrants DROP COLUMN withdrawn_from_round;
ALTER TABLE proposed_rounds DROP COLUMN vacated;
ALTER TABLE rounds DROP COLUMN vacated;
ALTER TABLE proposed_rounds DROP COLUMN groups;
ALTER TABLE rounds DROP COLUMN groups;
ALTER TABLE tournaments DROP CONSTRAINT tournaments_interrupted_check;
ALTER TABLE tournaments DROP COLUMN interrupted_reason;
ALTER TABLE tournaments DROP COLUMN interrupted_after_round;
ALTER TABLE tournaments DROP COLUMN plan;
