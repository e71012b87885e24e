-- WorldArchitect's campaigns (docs/mcp.md): a campaign lives between calls, over MCP and over /v1/campaigns alike.

-- One end user's campaign. Its scenes are written by campaign.open and campaign.turn jobs: a campaign has at most one
-- such job in flight (pending_job), and whichever API node first sees that job finished applies its scene and state in
-- one transaction that also clears pending_job, so a scene is never applied twice or lost with the node that waited.
CREATE TABLE campaigns (
    id uuid PRIMARY KEY,
    tenant_id text NOT NULL REFERENCES tenants,
    identity text NOT NULL,
    title text NOT NULL,
    -- What the campaign was opened with: {"setting", "character", "style"}, and the player's own settings.
    settings jsonb NOT NULL,
    -- The game state after the latest scene; NULL until the opening scene is applied.
    state jsonb,
    scene_count integer NOT NULL DEFAULT 0,
    pending_job uuid,
    -- The player's action the pending turn plays, stored with its scene.
    pending_action text,
    -- Why the last opening or turn job failed, until the next one is submitted.
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- The history, "Scene #1" onwards, each with the action that led to it (none for the opening) and its planning block.
CREATE TABLE campaign_scenes (
    campaign_id uuid NOT NULL REFERENCES campaigns ON DELETE CASCADE,
    number integer NOT NULL,
    action text,
    title text,
    narrative text NOT NULL,
    planning_block jsonb NOT NULL,
    job_id uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (campaign_id, number)
);

CREATE INDEX campaigns_identity_idx ON campaigns (tenant_id, identity, updated_at DESC, id);
CREATE INDEX campaigns_updated_idx ON campaigns (tenant_id, updated_at);
