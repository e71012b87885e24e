-- The quota ledger: what each metered job finally cost its subject. Redis holds the live counters (and the
-- reservations of unfinished jobs); this is the record they are checked against and rebuilt from.
CREATE TABLE quota_ledger (
    job_id uuid PRIMARY KEY,
    tenant_id text NOT NULL,
    subject text NOT NULL,
    -- The quota day the units were reserved on, yyyyMMdd in the tenant's reset time zone.
    day text NOT NULL CHECK (day ~ '^[0-9]{8}$'),
    quota_class text NOT NULL,
    units int NOT NULL CHECK (units >= 0),
    -- committed: charged (the job succeeded, or failed past the refund cap); released: given back.
    outcome text NOT NULL CHECK (outcome IN ('committed', 'released')),
    recorded_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX quota_ledger_day_idx ON quota_ledger (tenant_id, day, subject);
