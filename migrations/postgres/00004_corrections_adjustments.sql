-- What the corrections and adjustments services record beyond the columns
-- 00002_audit.sql settled (RULES §7, §9).

-- +goose Up
-- corrections.reason is the referee's own words (API §4.1 "reason");
-- ruling_reason is the one sentence Decide gave for its ruling. applied says
-- whether the sheet was changed: a rejected request is recorded too, with
-- applied false (a referee's ruling is part of the record). situation is the
-- CorrectionSituation the ruling was made on, as derived from the rounds;
-- sheet_version the sheet's version after an applied correction, or the
-- version the request was ruled on when it was rejected.
ALTER TABLE corrections ADD COLUMN ruling_reason text NOT NULL DEFAULT '';
ALTER TABLE corrections ADD COLUMN applied boolean NOT NULL DEFAULT false;
ALTER TABLE corrections ADD COLUMN situation json;
ALTER TABLE corrections ADD COLUMN sheet_version integer;
ALTER TABLE corrections ADD CONSTRAINT corrections_applied_check CHECK (NOT applied OR ruling <> 'reject');
ALTER TABLE corrections ADD CONSTRAINT corrections_sheet_version_check CHECK (sheet_version >= 1);

-- adjustments.vp / mp are what the adjustment adds to the entrant's
-- standings (a result in place of a match plus any penalty), NULL when it
-- adds nothing (a first warning, a lateness credit written on the sheet).
-- party is the side of a lateness or abandonment (RULES §7); details holds
-- the inputs the effect was computed from (warnings and byes before it,
-- played, at_interruption, advantage) and the effect itself.
ALTER TABLE adjustments ADD COLUMN party text NOT NULL DEFAULT '';
ALTER TABLE adjustments ADD COLUMN details json;
ALTER TABLE adjustments ADD CONSTRAINT adjustments_party_check CHECK (party IN ('', 'offender', 'innocent', 'both', 'later_opponent'));

-- +goose Down
ALTER TABLE adjustments DROP CONSTRAINT adjustments_party_check;
ALTER TABLE adjustments DROP COLUMN details;
ALTER TABLE adjustments DROP COLUMN party;
ALTER TABLE corrections DROP CONSTRAINT corrections_sheet_version_check;
ALTER TABLE corrections DROP CONSTRAINT corrections_applied_check;
ALTER TABLE corrections DROP COLUMN sheet_version;
ALTER TABLE corrections DROP COLUMN situation;
ALTER TABLE corrections DROP COLUMN applied;
ALTER TABLE corrections DROP COLUMN ruling_reason;
