-- Enqueues one job, or answers with the job an idempotency key already made.
-- KEYS: job, idempotency (or any key when unused)
-- ARGV: base, id, tenant, identity, kind, class, rank, input, max_attempts, timeout_ms, delay_ms, cap,
--       weight, body_hash, idempotency_key ('' for none), idempotency_ttl_s, stream_cap
-- Returns {'created'|'replayed'|'conflict', job id}.
local job, idem = KEYS[1], KEYS[2]
local base, id, tenant, identity, kind, class, rank, input, max_attempts, timeout_ms, delay_ms, cap, weight, body_hash, idem_key, idem_ttl, stream_cap = unpack(ARGV)

if idem_key ~= '' then
  local existing = redis.call('GET', idem)
  if existing then
    local sep = string.find(existing, '|', 1, true)
    local existing_id = string.sub(existing, 1, sep - 1)
    if string.sub(existing, sep + 1) ~= body_hash then return {'conflict', existing_id} end
    return {'replayed', existing_id}
  end
end

local now = now_ms()
redis.call('HSET', job, 'id', id, 'tenant', tenant, 'identity', identity, 'kind', kind, 'class', class,
  'rank', rank, 'input', input, 'max', max_attempts, 'timeout', timeout_ms, 'cap', cap, 'created', now,
  'state', 'queued', 'attempt', 0, 'tries', 0)
if idem_key ~= '' then redis.call('SET', idem, id .. '|' .. body_hash, 'EX', idem_ttl) end
redis.call('HSET', base .. ':weights', tenant, weight)
emit_state(base, id, 'queued', 0, stream_cap)

local delay = tonumber(delay_ms)
if delay > 0 then
  redis.call('ZADD', base .. ':delayed', now + delay, id)
  -- An idle worker recomputes how long it may sleep.
  wake(base, class)
else
  make_ready(base, id, false)
end
return {'created', id}
