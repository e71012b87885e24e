-- Claims up to `count` jobs of one class, rotating across tenants by weight, after recovering expired
-- leases and promoting due delayed jobs (both bounded, both found by score: nothing is scanned).
-- KEYS: active, vclock, wake_list, inflight, delayed, paused
-- ARGV: base, class, lease_ms, count, worker, stream_cap, sweep_limit, max_lease_losses, report_backlog
-- RETURNS: next_wake_in_ms, claimed_count, started_ms, waiting_weight, oldest_created_ms, took_recovered
-- RETURNS each: id, attempt, tenant, identity, kind, input, timeout_ms, created_ms, max_attempts, tries, rank, tier
-- next_wake_in_ms is how long until a delayed job falls due or a lease expires (-1: nothing pending); the caller may
-- block that long. A job's tier is '' when it was not metered. With report_backlog '1' (a namespace of several shards),
-- waiting_weight and oldest_created_ms tell the worker how much this shard still holds: the summed weights of the
-- tenants with ready jobs (the first 100 in the rotation), and when the job next in the rotation was submitted;
-- otherwise both are -1. took_recovered is 1 when this claim took a recovered job (one a claim: the caller does not
-- ask this shard again in the same round).
count = tonumber(count)
local now = now_ms()

-- Leases that expired: their worker died or stalled. That is the worker's failure, not the job's: the attempt is
-- given back (`tries`), and the job goes back to the head of its list, marked `recovered` so that claims spread such
-- jobs over the workers. Only a job whose lease was lost `max_lease_losses` times is buried: it may be what kills
-- its workers (a poison job). A job whose owner asked to cancel it ends; one whose hash an operator purged has
-- nothing left to recover.
for _, id in ipairs(redis.call('ZRANGE', inflight, '-inf', now, 'BYSCORE', 'LIMIT', 0, sweep_limit)) do
  redis.call('ZREM', inflight, id)
  local key = job_key(base, id)
  local tenant, identity, tries, lost, attempt, cancel = unpack(redis.call('HMGET', key, 'tenant', 'identity', 'tries', 'lost', 'attempt', 'cancel'))
  if tenant then
    release_slot(base, tenant, identity)
    lost = tonumber(lost or '0') + 1
    if cancel == '1' then
      finish(base, id, 'cancelled', now, attempt, error_fields('cancelled', 'cancelled by its owner'))
    elseif lost >= tonumber(max_lease_losses) then
      local buried = error_fields('lease_expired_repeatedly',
        'the lease of this job expired ' .. lost .. ' times: every worker that ran it died or stalled, so it may be what kills them')
      buried[#buried + 1], buried[#buried + 2] = 'lost', lost
      finish(base, id, 'dead', now, attempt, buried)
    else
      redis.call('HSET', key, 'state', 'retrying', 'tries', tonumber(tries) - 1, 'lost', lost, 'recovered', '1',
        unpack(error_fields('lease_expired', 'the worker running this job stopped renewing its lease')))
      emit_state(base, id, 'retrying', attempt, stream_cap)
      make_ready(base, id, true)
    end
  end
end

-- Delayed jobs and retries that fell due.
for _, id in ipairs(redis.call('ZRANGE', delayed, '-inf', now, 'BYSCORE', 'LIMIT', 0, sweep_limit)) do
  redis.call('ZREM', delayed, id)
  make_ready(base, id, false)
end

-- Lanes an operator paused (`paused`: `class:<name>`, `tenant:<id>`): a paused class claims nothing; a paused tenant
-- leaves the rotation, its jobs kept in their lists, until resume.lua puts it back. Read once a call, not per job.
local class_paused = false
for _, lane in ipairs(redis.call('SMEMBERS', paused)) do
  if lane == 'class:' .. class then
    class_paused = true
  elseif string.sub(lane, 1, 7) == 'tenant:' then
    redis.call('ZREM', active, string.sub(lane, 8))
  end
end
if class_paused then count = 0 end

-- Idle workers sleep until the earliest lease expiry they know of; the first lease must wake one to learn of it.
local had_leases = redis.call('ZCARD', inflight) > 0
local claimed = {}
local n = 0
local clock = tonumber(redis.call('GET', vclock) or '0')
local lease_until = now + tonumber(lease_ms)
local weights = {}
-- Running counts by identity key, read once and written back once per call.
local running = {}
-- One recovered job a call: a dead worker's batch is spread over the claimers, not taken whole by the first (and lost
-- whole again if that one dies too). The others stay at the head of their lists; their tenants sit out the rest of
-- the call, at the virtual time they had.
local took_recovered = false
local set_aside, sitting_out = {}, {}
while n < count do
  local top = redis.call('ZRANGE', active, 0, 1, 'WITHSCORES')
  if #top == 0 then break end
  local tenant, vtime = top[1], tonumber(top[2])
  local weight = weights[tenant]
  if not weight then
    weight = tonumber(redis.call('HGET', weights_key(base), tenant) or '1')
    weights[tenant] = weight
  end
  -- The tenant keeps its turn until its virtual time passes the next tenant's: take that many jobs at once.
  local turn = count - n
  if #top == 4 then turn = math.min(turn, math.floor((tonumber(top[4]) - vtime) * weight) + 1) end
  local ids = {}
  for rank = 0, 2 do
    local popped = redis.call('LPOP', ready_key(base, class, tenant, rank), turn - #ids)
    if popped then
      for _, id in ipairs(popped) do ids[#ids + 1] = id end
      if #ids >= turn then break end
    end
  end
  if #ids == 0 then
    redis.call('ZREM', active, tenant)
  else
    local served = 0
    for _, id in ipairs(ids) do
      local key = job_key(base, id)
      local fields = redis.call('HMGET', key, 'identity', 'cap', 'kind', 'input', 'timeout', 'created', 'max', 'tries', 'rank', 'attempt', 'cancel', 'tier',
        'recovered')
      local identity = fields[1]
      local counter = running_key(base, tenant, identity)
      if running[counter] == nil then running[counter] = tonumber(redis.call('GET', counter) or '0') end
      if fields[11] == '1' then
        -- Its owner cancelled it while an earlier attempt ran: it does not run again.
        finish(base, id, 'cancelled', now, fields[10], error_fields('cancelled', 'cancelled by its owner'))
      elseif fields[13] == '1' and took_recovered then
        set_aside[#set_aside + 1] = {ready_key(base, class, tenant, fields[9]), id}
        sitting_out[tenant] = vtime
      elseif running[counter] >= tonumber(fields[2]) then
        -- At its running cap: held back until one of its jobs ends, without holding up anyone else.
        hold(base, tenant, identity, id, fields[9], fields[6])
      else
        running[counter] = running[counter] + 1
        if fields[13] == '1' then
          took_recovered = true
          redis.call('HDEL', key, 'recovered')
        end
        local attempt = tonumber(fields[10]) + 1
        local tries = tonumber(fields[8]) + 1
        redis.call('HSET', key, 'state', 'running', 'started', as_text(now), 'worker', worker, 'attempt', as_text(attempt), 'tries',
          as_text(tries))
        later('ZADD', inflight, as_text(lease_until), id)
        emit_state(base, id, 'running', as_text(attempt), stream_cap)
        n = n + 1
        served = served + 1
        -- Straight into the reply: a table per job to copy from cost about a microsecond a job.
        local c = #claimed
        claimed[c + 1], claimed[c + 2], claimed[c + 3], claimed[c + 4], claimed[c + 5], claimed[c + 6] =
          id, attempt, tenant, identity, fields[3], fields[4]
        claimed[c + 7], claimed[c + 8], claimed[c + 9], claimed[c + 10], claimed[c + 11], claimed[c + 12] =
          fields[5], fields[6], fields[7], tries, fields[9], fields[12] or ''
      end
    end
    clock = vtime + served / weight
    if sitting_out[tenant] then
      sitting_out[tenant] = clock
      redis.call('ZREM', active, tenant)
    else
      redis.call('ZADD', active, 'XX', clock, tenant)
    end
  end
end
for i = #set_aside, 1, -1 do redis.call('LPUSH', set_aside[i][1], set_aside[i][2]) end
for tenant, vtime in pairs(sitting_out) do redis.call('ZADD', active, vtime, tenant) end
-- What was set aside is another worker's to take.
if #set_aside > 0 then wake(base, class) end
flush_batched()
-- A tenant that becomes busy starts at the lowest virtual time in the rotation, not behind the last one served.
local lowest = redis.call('ZRANGE', active, 0, 0, 'WITHSCORES')
if #lowest > 0 then clock = tonumber(lowest[2]) end
redis.call('SET', vclock, clock)
for counter, value in pairs(running) do redis.call('SET', counter, value) end

-- More work than this worker took, or a first lease to watch: wake another idle worker.
if (not class_paused and n == count and redis.call('ZCARD', active) > 0) or (n > 0 and not had_leases) then wake(base, class) end

local next_wake = -1
local first_due = redis.call('ZRANGE', delayed, 0, 0, 'WITHSCORES')
if #first_due > 0 then next_wake = tonumber(first_due[2]) end
local first_lease = redis.call('ZRANGE', inflight, 0, 0, 'WITHSCORES')
if #first_lease > 0 and (next_wake < 0 or tonumber(first_lease[2]) < next_wake) then next_wake = tonumber(first_lease[2]) end

-- Relative to Redis's clock, so a worker whose own clock is off still sleeps the right time.
if next_wake >= 0 then next_wake = math.max(next_wake - now, 0) end
local waiting, oldest = -1, -1
if report_backlog == '1' then
  waiting = 0
  local tenants = redis.call('ZRANGE', active, 0, 99)
  for _, tenant in ipairs(tenants) do
    waiting = waiting + (weights[tenant] or tonumber(redis.call('HGET', weights_key(base), tenant) or '1'))
  end
  if #tenants > 0 then
    for rank = 0, 2 do
      local id = redis.call('LINDEX', ready_key(base, class, tenants[1], rank), 0)
      if id then
        oldest = tonumber(redis.call('HGET', job_key(base, id), 'created') or '-1')
        break
      end
    end
  end
end
local reply = {next_wake, n, now, waiting, oldest, took_recovered and 1 or 0}
for _, value in ipairs(claimed) do reply[#reply + 1] = value end
return reply
