-- Privacy: the retention purge and identity erasure (docs/privacy.md).

-- An erased identity's provider usage stays as the tenant's spend, detached from the job it was for.
ALTER TABLE provider_usage ALTER COLUMN job_id DROP NOT NULL;

-- The purge takes what is past its tenant's retention oldest first, a bounded batch at a time. A purged input is
-- JSON null and a purged result SQL NULL; the partial indexes hold only the rows still to purge, so a run never
-- walks over what earlier runs already cleared.
CREATE INDEX jobs_input_kept_idx ON jobs (tenant_id, finished_at) WHERE input <> 'null'::jsonb;
CREATE INDEX jobs_result_kept_idx ON jobs (tenant_id, finished_at) WHERE result IS NOT NULL;
CREATE INDEX artifacts_created_idx ON artifacts (tenant_id, created_at);
CREATE INDEX uploads_created_idx ON uploads (tenant_id, created_at);

-- Erasure finds an identity's rows by whom they belong to.
CREATE INDEX uploads_identity_idx ON uploads (tenant_id, identity);
CREATE INDEX quota_ledger_subject_idx ON quota_ledger (tenant_id, subject);
CREATE INDEX partner_links_partner_idx ON partner_links (tenant_id, partner);
