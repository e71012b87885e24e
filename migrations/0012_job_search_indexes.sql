-- The console's job search by state, kind or identity, with or without a tenant, can read an index of its fields in
-- the search's order (newest first, by creation time then id), so a page of a filter that matches few records costs
-- the same beside ten thousand records as beside a million, where the newest-first walk would read to the table's end
-- (docs/console.md). PostgreSQL picks, for a filter of several fields, the index that reads least.
CREATE INDEX jobs_state_created_idx ON jobs (state, created_at DESC, id DESC);
CREATE INDEX jobs_kind_created_idx ON jobs (kind, created_at DESC, id DESC);
CREATE INDEX jobs_identity_created_idx ON jobs (identity, created_at DESC, id DESC);
CREATE INDEX jobs_tenant_state_created_idx ON jobs (tenant_id, state, created_at DESC, id DESC);
CREATE INDEX jobs_tenant_kind_created_idx ON jobs (tenant_id, kind, created_at DESC, id DESC);
