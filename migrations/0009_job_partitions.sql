-- PostgreSQL at scale (docs/postgres-at-scale.md): the tables that grow with jobs (jobs, artifacts, quota_ledger) are
-- partitioned by the day the job was submitted, which its id carries: a UUIDv7's first 48 bits are its Unix
-- milliseconds. The partition key is the job id itself, so the primary keys (the recorder's ON CONFLICT targets) hold it
-- as they are, a lookup by id prunes to one partition with no change to any query, and a job's rows in all three tables
-- sit in partitions of the same day, which the retention purge drops together.
--
-- Each table's existing rows stay where they are: the table becomes the DEFAULT partition of a new partitioned table of
-- the same name. The default also holds ids of version 4 (made before ids were UUIDv7; their first bits are random)
-- and any id of a day without a partition, so no insert ever fails. Day partitions (jobs_p20250614, …) are created
-- ahead by create_job_partitions, which the migration calls for the coming days and `kiln purge` calls each run.
-- provider_usage stays as it is: it is the tenants' spend, kept for good, so no retention would drop its partitions.

-- The lowest job id of a day (UTC): its first 48 bits are the day's first millisecond, every other bit 0.
CREATE FUNCTION job_id_floor(day date) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT (lpad(to_hex((extract(epoch FROM day::timestamp) * 1000)::bigint), 12, '0') || repeat('0', 20))::uuid $$;

-- The partitioned tables, in the order their partitions are created and dropped, and each one's partition key.
CREATE FUNCTION job_partitioned_tables() RETURNS TABLE (name text, key text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ VALUES ('jobs', 'id'), ('artifacts', 'job_id'), ('quota_ledger', 'job_id') $$;

-- Creates the partitions of `days` days from `first` on that are missing, in the schema of this migration; returns how
-- many tables it created. Rows of those days already in the default partition (an id of a day nobody created ahead) move
-- into the new partition. ATTACH takes only a SHARE UPDATE EXCLUSIVE lock on the parent, so reads and writes go on; it
-- scans the default partition, which therefore should hold few rows.
CREATE FUNCTION create_job_partitions(first date, days int) RETURNS int
LANGUAGE plpgsql SET search_path FROM CURRENT
AS $$
DECLARE
    day date;
    parent record;
    part text;
    created int := 0;
BEGIN
    -- Two purges at once would race between the existence check and CREATE.
    PERFORM pg_advisory_xact_lock(hashtextextended('kiln.job_partitions:' || current_schema(), 0));
    FOR day IN SELECT generate_series(first, first + days - 1, interval '1 day')::date LOOP
        FOR parent IN SELECT * FROM job_partitioned_tables() LOOP
            part := parent.name || '_p' || to_char(day, 'YYYYMMDD');
            CONTINUE WHEN to_regclass(quote_ident(part)) IS NOT NULL;
            EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, parent.name);
            EXECUTE format(
                'WITH moved AS (DELETE FROM %I WHERE %I >= $1 AND %I < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
                parent.name || '_default', parent.key, parent.key, part)
                USING job_id_floor(day), job_id_floor(day + 1);
            EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                parent.name, part, job_id_floor(day), job_id_floor(day + 1));
            created := created + 1;
        END LOOP;
    END LOOP;
    RETURN created;
END
$$;

-- Drops the partitions of `day` of every partitioned table, in one transaction; returns how many it dropped. Dropping
-- a partition needs an ACCESS EXCLUSIVE lock on its parent for an instant: rather than queue every query behind a long
-- one, it gives up after lock_timeout and the next purge tries again.
CREATE FUNCTION drop_job_partitions(day date) RETURNS int
LANGUAGE plpgsql SET search_path FROM CURRENT SET lock_timeout = '5s'
AS $$
DECLARE
    parent record;
    part text;
    dropped int := 0;
BEGIN
    -- Two purges at once: the second finds the day gone.
    PERFORM pg_advisory_xact_lock(hashtextextended('kiln.job_partitions:' || current_schema(), 0));
    FOR parent IN SELECT * FROM job_partitioned_tables() LOOP
        part := parent.name || '_p' || to_char(day, 'YYYYMMDD');
        CONTINUE WHEN to_regclass(quote_ident(part)) IS NULL;
        EXECUTE format('DROP TABLE %I', part);
        dropped := dropped + 1;
    END LOOP;
    RETURN dropped;
END
$$;

-- The days that have partitions (of jobs, which every other table's follow), oldest first.
CREATE FUNCTION job_partition_days() RETURNS SETOF date
LANGUAGE sql STABLE SET search_path FROM CURRENT
AS $$
    SELECT to_date(right(c.relname, 8), 'YYYYMMDD') AS day
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'jobs'::regclass AND c.relname ~ '^jobs_p[0-9]{8}$'
    ORDER BY day
$$;

-- jobs: the table becomes jobs_default, its indexes keep their definitions under the default's names, and the
-- partitioned table's indexes (created before the attach) take the default's over instead of building new ones.
ALTER TABLE jobs RENAME TO jobs_default;
ALTER INDEX jobs_pkey RENAME TO jobs_default_pkey;
ALTER INDEX jobs_identity_idx RENAME TO jobs_default_identity_idx;
ALTER INDEX jobs_input_kept_idx RENAME TO jobs_default_input_kept_idx;
ALTER INDEX jobs_result_kept_idx RENAME TO jobs_default_result_kept_idx;
ALTER INDEX jobs_dead_idx RENAME TO jobs_default_dead_idx;
ALTER INDEX jobs_dead_tenant_idx RENAME TO jobs_default_dead_tenant_idx;
ALTER INDEX jobs_dead_kind_idx RENAME TO jobs_default_dead_kind_idx;
ALTER INDEX jobs_created_idx RENAME TO jobs_default_created_idx;

CREATE TABLE jobs (
    LIKE jobs_default INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
    PRIMARY KEY (id),
    FOREIGN KEY (tenant_id) REFERENCES tenants
) PARTITION BY RANGE (id);

CREATE INDEX jobs_identity_idx ON jobs (tenant_id, identity, created_at DESC);
CREATE INDEX jobs_input_kept_idx ON jobs (tenant_id, finished_at) WHERE input <> 'null'::jsonb;
CREATE INDEX jobs_result_kept_idx ON jobs (tenant_id, finished_at) WHERE result IS NOT NULL;
CREATE INDEX jobs_dead_idx ON jobs (finished_at DESC, id DESC) WHERE state IN ('failed', 'dead') AND discarded_at IS NULL;
CREATE INDEX jobs_dead_tenant_idx ON jobs (tenant_id, kind, finished_at DESC, id DESC) WHERE state IN ('failed', 'dead') AND discarded_at IS NULL;
CREATE INDEX jobs_dead_kind_idx ON jobs (kind, finished_at DESC, id DESC) WHERE state IN ('failed', 'dead') AND discarded_at IS NULL;
CREATE INDEX jobs_created_idx ON jobs (created_at DESC, id DESC);
-- The purge deletes a tenant's records past its `records_days` oldest first (docs/privacy.md).
CREATE INDEX jobs_tenant_created_idx ON jobs (tenant_id, created_at);

-- The default's own foreign key becomes the parent's, and its indexes the parent's.
ALTER TABLE jobs ATTACH PARTITION jobs_default DEFAULT;

-- artifacts
ALTER TABLE artifacts RENAME TO artifacts_default;
ALTER INDEX artifacts_pkey RENAME TO artifacts_default_pkey;
ALTER INDEX artifacts_created_idx RENAME TO artifacts_default_created_idx;

CREATE TABLE artifacts (
    LIKE artifacts_default INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
    PRIMARY KEY (job_id, name)
) PARTITION BY RANGE (job_id);

CREATE INDEX artifacts_created_idx ON artifacts (tenant_id, created_at);

ALTER TABLE artifacts ATTACH PARTITION artifacts_default DEFAULT;

-- quota_ledger
ALTER TABLE quota_ledger RENAME TO quota_ledger_default;
ALTER INDEX quota_ledger_pkey RENAME TO quota_ledger_default_pkey;
ALTER INDEX quota_ledger_day_idx RENAME TO quota_ledger_default_day_idx;
ALTER INDEX quota_ledger_subject_idx RENAME TO quota_ledger_default_subject_idx;

CREATE TABLE quota_ledger (
    LIKE quota_ledger_default INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
    PRIMARY KEY (job_id)
) PARTITION BY RANGE (job_id);

CREATE INDEX quota_ledger_day_idx ON quota_ledger (tenant_id, day, subject);
CREATE INDEX quota_ledger_subject_idx ON quota_ledger (tenant_id, subject);

ALTER TABLE quota_ledger ATTACH PARTITION quota_ledger_default DEFAULT;

-- Yesterday (an API node's clock a little behind) to tomorrow; the purge makes the week ahead from then on. Few, since
-- every partition made here scans the default one, and every test's schema runs this.
SELECT create_job_partitions((now() AT TIME ZONE 'UTC')::date - 1, 3);
