-- What each provider call that answered consumed, per job and attempt: every attempt costs money, so a retried job
-- has a row for each answer it got. Written by the handler as soon as the answer arrives.
CREATE TABLE provider_usage (
    id bigserial PRIMARY KEY,
    job_id uuid NOT NULL,
    tenant_id text NOT NULL,
    attempt int NOT NULL CHECK (attempt >= 1),
    provider text NOT NULL,
    model text NOT NULL,
    input_tokens int NOT NULL CHECK (input_tokens >= 0),
    output_tokens int NOT NULL CHECK (output_tokens >= 0),
    images int NOT NULL DEFAULT 0 CHECK (images >= 0),
    recorded_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX provider_usage_job_idx ON provider_usage (job_id);
CREATE INDEX provider_usage_tenant_idx ON provider_usage (tenant_id, recorded_at);
