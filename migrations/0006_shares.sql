-- Talevonia's published reading paths (docs/documents.md): the web reader's page at /s/{slug}, and the files it shows.

-- A slug is 128 random bits, base64url: unguessable, and the whole of a page's address. A publishing job reserves its
-- row first (html still NULL: the address answers 404), then writes the files, then the page. Revoking or expiring a
-- page removes its files and page at once (revocation) or at the next purge (expiry); the row stays, so the address
-- answers 410 Gone, until the purge deletes it 30 days after its end.
CREATE TABLE shares (
    slug text PRIMARY KEY,
    tenant_id text NOT NULL REFERENCES tenants,
    identity text NOT NULL,
    -- The share.publish job; a retried job finds its share again instead of publishing twice.
    job_id uuid NOT NULL UNIQUE,
    html text,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz,
    -- Set once every object under the page's folder is deleted: only then may the row go.
    files_removed boolean NOT NULL DEFAULT false
);

-- The share card and the pictures of a page; bytes in the object store under tenants/<tenant>/shares/<slug>/.
CREATE TABLE share_files (
    slug text NOT NULL REFERENCES shares ON DELETE CASCADE,
    name text NOT NULL,
    content_type text NOT NULL,
    path text NOT NULL,
    PRIMARY KEY (slug, name)
);

CREATE INDEX shares_identity_idx ON shares (tenant_id, identity);
CREATE INDEX shares_expires_idx ON shares (tenant_id, expires_at);
