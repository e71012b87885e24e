-- Admits and enqueues one job, or answers with the job an idempotency key already made. Admission (for a metered
-- submission) decides, in order: a block on the subject, its daily quota (reserved units count), its cap on
-- unfinished jobs, the device's cooldown; then reserves the units and enqueues. A denial writes nothing, and says
-- the class's use.
-- KEYS: job, idem
-- ARGV: base, id, tenant, identity, kind, class, rank, input, max_attempts, timeout_ms, delay_ms, cap, weight,
--       body_hash, idem_key, idem_ttl_s, subject, quota_class, cost, limit, day, reset_at_ms,
--       subject_cap, device, cooldown_ms, refund_cap, tier, reservation_lifetime_ms, ip, subject_emission_ms,
--       subject_burst, ip_emission_ms, ip_burst, max_devices, max_subjects, abuse_shadow, abuse_cooldown_ms,
--       abuse_block_ms, refund_min, refund_ratio, safety_min, safety_ratio
-- RETURNS created: id, limit, used, pending
-- RETURNS replayed: id
-- RETURNS conflict: id
-- RETURNS denied: reason, limit, used, pending, retry_after_ms, detail
-- idem_key and device are '' for none, ip '' when unknown; every argument from subject on is '' for an unmetered
-- job, and limit is -1 when unlimited. limit, used and pending are -1 when unmetered; detail is a block's reason
-- ('' otherwise).

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
local usage = {-1, -1, -1}
local metered = subject ~= ''
-- The device's cooldown this job starts, if any: a key that points at the job.
local cooling
if metered then
  cost, limit, subject_cap = tonumber(cost), tonumber(limit), tonumber(subject_cap)
  local denied = function(reason, retry_after_ms, detail)
    return {'denied', reason, usage[1], usage[2], usage[3], math.max(math.ceil(retry_after_ms), 0), detail or ''}
  end
  local reservations = reservations_key(base, tenant, subject)
  local quota = quota_key(base, tenant, subject, day)
  local counted = redis.call('HMGET', quota, 'used:' .. quota_class, 'rsv:' .. quota_class)
  local used, pending = tonumber(counted[1] or '0'), tonumber(counted[2] or '0')
  -- Every reservation counts as live and every reserved unit as pending until a call would refuse on them: only then
  -- does it look for reservations whose job is gone or that outlived any run of it, so the decision is the one a full
  -- look would make. Those come back, but only if this call admits.
  local expired, live = {}, redis.call('HLEN', reservations)
  if (limit >= 0 and used + pending + cost > limit) or live >= subject_cap then
    live = 0
    local entries = redis.call('HGETALL', reservations)
    for i = 1, #entries, 2 do
      local r = parse_reservation(entries[i + 1])
      if r.expires <= now or redis.call('EXISTS', job_key(base, entries[i])) == 0 then
        expired[#expired + 1] = {entries[i], r}
        if r.day == day and r.class == quota_class then pending = pending - r.cost end
      else
        live = live + 1
      end
    end
  end
  usage = {limit, used, pending}
  local block = block_key(base, tenant, subject)
  local blocked_for = redis.call('PTTL', block)
  if blocked_for > 0 then return denied('temporarily_blocked', blocked_for, redis.call('GET', block)) end
  -- An operator's blocks, kept on every shard: of the identity (whose quota a partner pool may pay), its device, its
  -- address.
  local blocked = {}
  if identity ~= subject then blocked[#blocked + 1] = block_key(base, tenant, identity) end
  if device ~= '' then blocked[#blocked + 1] = device_block_key(base, tenant, device) end
  if ip ~= '' then blocked[#blocked + 1] = address_block_key(base, tenant, ip) end
  for _, key in ipairs(blocked) do
    local remaining = redis.call('PTTL', key)
    if remaining > 0 then return denied('temporarily_blocked', remaining, redis.call('GET', key)) end
  end

  -- A new device for the subject, or a new subject on the device, past the day's limits: an Apple Account or a
  -- device being cycled. The trip escalates (and is logged) even though this call then admits nothing.
  local devices = devices_key(base, tenant, subject, day)
  local subjects = subjects_key(base, tenant, device, day)
  if device ~= '' then
    local signal
    if redis.call('SISMEMBER', devices, device) == 0 and redis.call('SCARD', devices) >= tonumber(max_devices) then
      signal = 'too_many_devices'
    elseif redis.call('SISMEMBER', subjects, subject) == 0 and redis.call('SCARD', subjects) >= tonumber(max_subjects) then
      signal = 'device_shared_by_too_many_identities'
    end
    if signal then
      local _, duration = escalate(base, tenant, subject, day, signal, abuse_shadow, abuse_cooldown_ms, abuse_block_ms, now)
      if abuse_shadow ~= '1' then return denied('temporarily_blocked', duration, signal) end
    end
  end
  -- Until the day resets, by the clock that chose the day (the caller's): the caller works out that wait.
  if limit >= 0 and used + pending + cost > limit then return denied('daily_quota_exhausted', 0) end
  -- A slot frees when one of the subject's jobs ends, which may be soon: a short wait is the honest hint.
  if live >= subject_cap then return denied('concurrency_limit', 2000) end
  local cooldown = cooldown_key(base, tenant, device, quota_class)
  if device ~= '' then
    local cooling_for = redis.call('PTTL', cooldown)
    if cooling_for > 0 then return denied('device_cooldown', cooling_for) end
  end
  -- Velocity: a GCRA (redis-cell's algorithm) per subject and per IP address, counting admitted submissions.
  local velocities = {}
  for _, v in ipairs({{subject, subject_emission_ms, subject_burst}, {ip ~= '' and 'ip:' .. ip or nil, ip_emission_ms, ip_burst}}) do
    if v[1] then
      local emission, burst = tonumber(v[2]), tonumber(v[3])
      local key = velocity_key(base, tenant, v[1])
      local tat = math.max(tonumber(redis.call('GET', key) or '0'), now)
      local allowed_at = tat - emission * burst
      if now < allowed_at then return denied('rate_limited', allowed_at - now) end
      velocities[#velocities + 1] = {key, tat + emission}
    end
  end

  for _, e in ipairs(expired) do
    redis.call('HDEL', reservations, e[1])
    redis.call('HINCRBY', quota_key(base, tenant, subject, e[2].day), 'rsv:' .. e[2].class, -e[2].cost)
  end
  redis.call('HINCRBY', quota, 'rsv:' .. quota_class, cost)
  -- Yesterday's counters stay two days for late commits, releases and audits.
  redis.call('PEXPIREAT', quota, tonumber(reset_at_ms) + 2 * 86400000)
  redis.call('HSET', reservations, id, day .. '|' .. quota_class .. '|' .. cost .. '|' .. (now + tonumber(reservation_lifetime_ms)))
  if device ~= '' and tonumber(cooldown_ms) > 0 then
    redis.call('SET', cooldown, id, 'PX', cooldown_ms)
    cooling = cooldown
  end
  for _, v in ipairs(velocities) do redis.call('SET', v[1], v[2], 'PX', math.max(math.ceil(v[2] - now), 1)) end
  redis.call('HINCRBY', quota, 'jobs', 1)
  if device ~= '' then
    -- The day's sets outlive it by a day, like its counters.
    redis.call('SADD', devices, device)
    redis.call('PEXPIREAT', devices, tonumber(reset_at_ms) + 86400000)
    redis.call('SADD', subjects, subject)
    redis.call('PEXPIREAT', subjects, tonumber(reset_at_ms) + 86400000)
  end
  usage = {limit, used, pending + cost}
end

redis.call('HSET', job, 'id', id, 'tenant', tenant, 'identity', identity, 'kind', kind, 'class', class,
  'rank', rank, 'input', input, 'max', max_attempts, 'timeout', timeout_ms, 'cap', cap, 'created', now,
  'state', 'queued', 'attempt', 0, 'tries', 0)
if metered then
  -- The abuse thresholds the job's settlement applies (settle_reservation in common.lua reads them back).
  local abuse = table.concat({abuse_shadow, abuse_cooldown_ms, abuse_block_ms, refund_min, refund_ratio, safety_min, safety_ratio}, '|')
  redis.call('HSET', job, 'q_subject', subject, 'q_refund_cap', refund_cap, 'q_abuse', abuse, 'tier', tier)
end
if idem_key ~= '' then redis.call('SET', idem, id .. '|' .. body_hash, 'EX', idem_ttl_s) end
local owned = {'+inf', 'j:' .. id}
if idem_key ~= '' then owned[#owned + 1], owned[#owned + 2] = now + tonumber(idem_ttl_s) * 1000, 'k:' .. idem end
if cooling then owned[#owned + 1], owned[#owned + 2] = now + tonumber(cooldown_ms), 'k:' .. cooling end
own(base, tenant, identity, now, owned)
-- Written only when it changed: an unchanged write would still go to the AOF.
if redis.call('HGET', weights_key(base), tenant) ~= weight then redis.call('HSET', weights_key(base), tenant, weight) end
-- The stream's first event: nothing to trim.
emit_state(base, id, 'queued', 0)

local delay = tonumber(delay_ms)
if delay > 0 then
  redis.call('ZADD', delayed_key(base), now + delay, id)
  -- An idle worker recomputes how long it may sleep.
  wake(base, class)
else
  make_ready(base, id, false, class, tenant, rank)
end
return {'created', id, usage[1], usage[2], usage[3]}
