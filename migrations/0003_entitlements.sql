-- Entitlements: which tier an identity has paid for, until when, and who said so. Fed by the stores' notifications
-- and the subscription platforms' webhooks; admission reads them (through a cache in Redis) to pick the tier.
CREATE TABLE entitlements (
    tenant_id text NOT NULL,
    identity text NOT NULL,
    tier text NOT NULL,
    -- NULL: no end (a lifetime purchase). A revoked or refunded entitlement ends at once.
    expires_at timestamptz,
    source text NOT NULL CHECK (source IN ('app_store', 'revenuecat', 'adapty')),
    product_id text,
    -- When the event that set this happened: an older event, delivered late, never overwrites a newer one.
    event_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, identity)
);

-- Notifications and webhook events already applied: the stores retry, and a retry must change nothing.
CREATE TABLE processed_events (
    source text NOT NULL,
    event_id text NOT NULL,
    tenant_id text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source, event_id)
);

-- Secrets a subscription platform sends in its webhooks' Authorization header; only a hash is stored.
CREATE TABLE webhook_secrets (
    id uuid PRIMARY KEY,
    tenant_id text NOT NULL REFERENCES tenants,
    source text NOT NULL CHECK (source IN ('revenuecat', 'adapty')),
    secret_hash text NOT NULL UNIQUE CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);

-- Partners (Veramo): two identities that share one entitlement and one quota pool. A pair's rows share pair_id;
-- unlinked_at ends a link and starts the cooldown before either may link again.
CREATE TABLE partner_links (
    tenant_id text NOT NULL,
    identity text NOT NULL,
    pair_id uuid NOT NULL,
    partner text NOT NULL,
    linked_at timestamptz NOT NULL DEFAULT now(),
    unlinked_at timestamptz
);

CREATE UNIQUE INDEX partner_links_active_idx ON partner_links (tenant_id, identity) WHERE unlinked_at IS NULL;
CREATE INDEX partner_links_identity_idx ON partner_links (tenant_id, identity, unlinked_at DESC);

-- A partner invitation: the inviter shares the code, the partner redeems it, the inviter accepts.
CREATE TABLE partner_invitations (
    code text PRIMARY KEY,
    tenant_id text NOT NULL,
    inviter text NOT NULL,
    redeemer text,
    expires_at timestamptz NOT NULL
);
