-- Renames one identity of a tenant (docs/identity.md, `kiln identity migrate-namespaces`), at once, so no admission,
-- claim or settlement sees half of it: its jobs' owner and quota subject, its running count and held jobs, its
-- reservations, block and velocity, the index of what it owns, its quota days' counters and devices, and its name in
-- the sets of subjects its devices served. Where the new name already holds something (the identity was used under it before the rename),
-- the two are merged: counters add up, sets and hashes join, the later block, velocity and expiry win. Its cached
-- standing is dropped under both names, to be read again from PostgreSQL.
-- KEYS: unrecorded, blocks
-- ARGV: base, tenant, from, to
-- ARGV each: family, value
-- RETURNS: jobs, pending
-- Items: ('job', id) for each job Redis holds of it, ('day', yyyyMMdd) for each quota day with its counters or
-- devices, ('served', key) for each set of subjects that names it. jobs is how many jobs were renamed; pending lists
-- those running, or finished and not yet recorded: PostgreSQL gets their records, under the old name, later.

-- The later of two keys' expiries for `target` (none when either has none).
local function keep_later_expiry(source_ttl, target)
  local target_ttl = redis.call('PTTL', target)
  if source_ttl == -1 or target_ttl == -1 then
    redis.call('PERSIST', target)
  elseif source_ttl > target_ttl then
    redis.call('PEXPIRE', target, source_ttl)
  end
end

-- Moves `source` to `target`, merging with `merge(source, target)` when both exist.
local function move(source, target, merge)
  if redis.call('EXISTS', source) == 0 then return end
  if redis.call('EXISTS', target) == 0 then
    redis.call('RENAME', source, target)
    return
  end
  local source_ttl = redis.call('PTTL', source)
  merge(source, target)
  keep_later_expiry(source_ttl, target)
  redis.call('DEL', source)
end

local function add_counters(source, target)
  local fields = redis.call('HGETALL', source)
  for i = 1, #fields, 2 do redis.call('HINCRBY', target, fields[i], fields[i + 1]) end
end
local function join_hashes(source, target)
  local fields = redis.call('HGETALL', source)
  for i = 1, #fields, 2 do redis.call('HSETNX', target, fields[i], fields[i + 1]) end
end
local function join_sets(source, target)
  redis.call('SUNIONSTORE', target, target, source)
end
local function join_sorted_sets(source, target)
  local members = redis.call('ZRANGE', source, 0, -1, 'WITHSCORES')
  for i = 1, #members, 2 do redis.call('ZADD', target, members[i + 1], members[i]) end
end
local function add_count(source, target)
  redis.call('INCRBY', target, redis.call('GET', source))
end
local function later_time(source, target)
  if tonumber(redis.call('GET', source)) > tonumber(redis.call('GET', target)) then
    redis.call('SET', target, redis.call('GET', source), 'KEEPTTL')
  end
end
local function longer_block(source, target)
  if redis.call('PTTL', source) > redis.call('PTTL', target) then
    redis.call('SET', target, redis.call('GET', source), 'KEEPTTL')
  end
end

local renamed, pending = 0, {}
for family, value in each_item() do
  if family == 'job' then
    local key = job_key(base, value)
    local owner, who, subject, charge, state = unpack(redis.call('HMGET', key, 'tenant', 'identity', 'q_subject', 'q_charge', 'state'))
    if owner == tenant and (who == from or subject == from) then
      if who == from then redis.call('HSET', key, 'identity', to) end
      if subject == from then redis.call('HSET', key, 'q_subject', to) end
      -- 'outcome|day|class|units|subject' (settle_reservation): the subject is what follows the fourth bar.
      local settled = charge and string.match(charge, '^([^|]*|[^|]*|[^|]*|[^|]*|)')
      if settled and string.sub(charge, #settled + 1) == from then redis.call('HSET', key, 'q_charge', settled .. to) end
      if state == 'running' or redis.call('ZSCORE', unrecorded, value) then pending[#pending + 1] = value end
      renamed = renamed + 1
    end
  elseif family == 'day' then
    move(quota_key(base, tenant, from, value), quota_key(base, tenant, to, value), add_counters)
    move(devices_key(base, tenant, from, value), devices_key(base, tenant, to, value), join_sets)
  elseif family == 'served' then
    -- Added before the old name goes, so the set (and its expiry) never empties.
    if redis.call('SISMEMBER', value, from) == 1 then
      redis.call('SADD', value, to)
      redis.call('SREM', value, from)
    end
  end
end

move(running_key(base, tenant, from), running_key(base, tenant, to), add_count)
move(owned_key(base, tenant, from), owned_key(base, tenant, to), join_sorted_sets)
move(held_key(base, tenant, from), held_key(base, tenant, to), join_sorted_sets)
move(reservations_key(base, tenant, from), reservations_key(base, tenant, to), join_hashes)
move(velocity_key(base, tenant, from), velocity_key(base, tenant, to), later_time)
move(block_key(base, tenant, from), block_key(base, tenant, to), longer_block)
local blocked_until = redis.call('ZSCORE', blocks, tenant .. ':' .. from)
if blocked_until then
  redis.call('ZREM', blocks, tenant .. ':' .. from)
  redis.call('ZADD', blocks, 'GT', blocked_until, tenant .. ':' .. to)
end
redis.call('DEL', standing_key(base, tenant, from), standing_key(base, tenant, to))
return {renamed, pending}
