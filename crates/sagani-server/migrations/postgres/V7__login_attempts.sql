-- Log-in attempts counted per subject (a name at an address, an address) in a window: one row
-- each, counted up by one upsert that returns the count, so servers sharing the database count
-- together and concurrent attempts cannot slip past the limit. Replaces the list of failures.
DROP TABLE login_failures;
CREATE TABLE login_attempts (
    subject TEXT PRIMARY KEY,
    since BIGINT NOT NULL,
    attempts BIGINT NOT NULL
);
CREATE INDEX login_attempts_by_since ON login_attempts (since);
