-- Failed sign-ins and failed table-code look-ups, shared by every replica
-- of the service: an attacker's budget is the same whichever replica the
-- balancer picks, and a restart does not reset it. Each row is one
-- failure that counts against key until expires (the limit's window),
-- written by the process origin (which counts its own in memory).
-- health_probe is the one row /readyz writes to learn whether writes work
-- again after the disk filled up.

-- +goose Up
CREATE TABLE rate_failures (
    key     text        NOT NULL CHECK (length(key) <= 200),
    origin  text        NOT NULL,
    at      timestamptz NOT NULL,
    expires timestamptz NOT NULL
);
CREATE INDEX rate_failures_key_idx ON rate_failures (key, expires);
CREATE INDEX rate_failures_expires_idx ON rate_failures (expires);

CREATE TABLE health_probe (
    id         integer     PRIMARY KEY CHECK (id = 1),
    checked_at timestamptz NOT NULL
);
INSERT INTO health_probe (id, checked_at) VALUES (1, now());

-- +goose Down
DROP TABLE health_probe;
DROP TABLE rate_failures;
