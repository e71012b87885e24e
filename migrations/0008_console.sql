-- The operator console (docs/console.md): operators with their own credentials, their sessions, and the audit log of
-- what they did.

-- An operator signs in with a token shown once by `kiln operator create`; only its SHA-256 hash is kept. Viewers look,
-- operators act.
CREATE TABLE operators (
    name text PRIMARY KEY,
    role text NOT NULL CHECK (role IN ('viewer', 'operator')),
    token_hash text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);

-- A signed-in browser: the cookie carries a secret whose hash is the id; a session ends at expires_at, at sign-out, or
-- when its operator is revoked.
CREATE TABLE operator_sessions (
    id text PRIMARY KEY,
    operator text NOT NULL REFERENCES operators ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX operator_sessions_expires_idx ON operator_sessions (expires_at);

-- Every action taken in the console (and refused ones), who, what, on what, when.
CREATE TABLE console_audit (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    operator text NOT NULL,
    action text NOT NULL,
    target text NOT NULL,
    note text NOT NULL DEFAULT '',
    outcome text NOT NULL
);
CREATE INDEX console_audit_at_idx ON console_audit (at DESC, id DESC);

-- A discarded dead letter (a job that failed for good or ran out of attempts) leaves the dead-letter list; its record
-- stays as it ended.
ALTER TABLE jobs ADD COLUMN discarded_at timestamptz;

-- The console's lists page by keyset on these, so a million rows cost what a page does.
CREATE INDEX jobs_dead_idx ON jobs (finished_at DESC, id DESC) WHERE state IN ('failed', 'dead') AND discarded_at IS NULL;
CREATE INDEX jobs_dead_tenant_idx ON jobs (tenant_id, kind, finished_at DESC, id DESC) WHERE state IN ('failed', 'dead') AND discarded_at IS NULL;
CREATE INDEX jobs_dead_kind_idx ON jobs (kind, finished_at DESC, id DESC) WHERE state IN ('failed', 'dead') AND discarded_at IS NULL;
CREATE INDEX jobs_created_idx ON jobs (created_at DESC, id DESC);
