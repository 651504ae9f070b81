-- The SQLite twin of migrations/postgres/00016_rate_failures.sql. The
-- embedded database serves one process, which keeps its rate limits in
-- memory: rate_failures stays empty here, kept so both databases have the
-- same tables. health_probe is what /readyz writes after a full disk.

-- +goose Up
CREATE TABLE rate_failures (
    key     text     NOT NULL,
    origin  text     NOT NULL,
    at      datetime NOT NULL,
    expires datetime NOT NULL,
    CONSTRAINT rate_failures_key_check CHECK (length(key) <= 200)
);
CREATE INDEX rate_failures_key_idx ON rate_failures (key, expires);
CREATE INDEX rate_failures_expires_idx ON rate_failures (expires);

CREATE TABLE health_probe (
    id         integer  NOT NULL PRIMARY KEY,
    checked_at datetime NOT NULL,
    CONSTRAINT health_probe_id_check CHECK (id = 1)
);
INSERT INTO health_probe (id, checked_at) VALUES (1, CURRENT_TIMESTAMP);

-- +goose Down
DROP TABLE health_probe;
DROP TABLE rate_failures;
