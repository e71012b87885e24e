-- A job's record no longer checks its tenant against `tenants` (issue 15). Every record a worker writes carries the
-- tenant of an authenticated submission, and no tenant is ever deleted, so the check never refused a row; it ran once
-- per row as a trigger (a query locking the tenant's row), 14% of PostgreSQL's CPU in a no-op burn-down.
-- The partitioned table's own key goes, and with it its partitions'; so does the key the default partition kept from
-- when it was the whole table.
DO $$
DECLARE
    foreign_key record;
BEGIN
    FOR foreign_key IN
        SELECT conname, conrelid::regclass AS owner FROM pg_constraint
        WHERE contype = 'f' AND confrelid = 'tenants'::regclass AND conparentid = 0
            AND conrelid IN ('jobs'::regclass, 'jobs_default'::regclass)
    LOOP
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', foreign_key.owner, foreign_key.conname);
    END LOOP;
END
$$;
