-- Tenants, their API keys, the record of jobs, artifacts' and uploads' metadata.
-- Names are unqualified: the migrator sets search_path to the target schema.

CREATE TABLE tenants (
    id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
    name text NOT NULL CHECK (name <> ''),
    weight int NOT NULL DEFAULT 1 CHECK (weight BETWEEN 1 AND 1000),
    running_cap int NOT NULL DEFAULT 8 CHECK (running_cap >= 1),
    diagnostics boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Only the SHA-256 of a key is stored; prefix is its first characters, for listings.
CREATE TABLE api_keys (
    id uuid PRIMARY KEY,
    tenant_id text NOT NULL REFERENCES tenants,
    key_hash text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
    prefix text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);

CREATE INDEX api_keys_tenant_idx ON api_keys (tenant_id, created_at);

-- Written by workers; attempt is the fencing token: a write never replaces one from a later attempt.
CREATE TABLE jobs (
    id uuid PRIMARY KEY,
    tenant_id text NOT NULL REFERENCES tenants,
    identity text NOT NULL,
    kind text NOT NULL,
    priority text NOT NULL CHECK (priority IN ('high', 'normal', 'low')),
    state text NOT NULL CHECK (state IN ('queued', 'running', 'retrying', 'succeeded', 'failed', 'cancelled', 'dead')),
    attempt int NOT NULL CHECK (attempt >= 0),
    max_attempts int NOT NULL CHECK (max_attempts >= 1),
    input jsonb NOT NULL,
    result jsonb,
    error_code text,
    error_message text,
    created_at timestamptz NOT NULL,
    started_at timestamptz,
    finished_at timestamptz,
    recorded_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX jobs_identity_idx ON jobs (tenant_id, identity, created_at DESC);

-- Bytes live at path in the object store; a later attempt's artifact replaces an earlier one's.
CREATE TABLE artifacts (
    job_id uuid NOT NULL,
    tenant_id text NOT NULL,
    name text NOT NULL,
    attempt int NOT NULL CHECK (attempt >= 0),
    content_type text NOT NULL,
    size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
    sha256 text NOT NULL,
    path text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_id, name)
);

CREATE TABLE uploads (
    id uuid PRIMARY KEY,
    tenant_id text NOT NULL REFERENCES tenants,
    identity text NOT NULL,
    content_type text NOT NULL,
    size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
    sha256 text NOT NULL,
    path text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
