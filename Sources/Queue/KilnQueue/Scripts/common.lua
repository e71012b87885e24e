-- Shared helpers, prepended to every script by the Swift loader (QueueScripts), after the key helpers it generates
-- from KeySpace (`job_key(base, id)`, `quota_key(base, tenant, subject, day)`, …) and before the script's KEYS and
-- ARGV bindings, which it generates from the script's Swift contract (ScriptCalls/). A script gets only the helpers it
-- uses (ScriptPrelude), so this file holds top-level `local` definitions only, each running to the next.
-- Keys: every key starts with the namespace's hash tag `{<namespace>}` (`base`), so a script only ever touches one
-- Redis Cluster slot. Times are Redis's own clock in milliseconds.

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- A whole number as text, made once per number a call: Redis 7.0 writes a number argument with printf's "%.17g" (and
-- Lua joins one into a string with "%.14g"), about half a microsecond for a time in milliseconds, and a call that
-- touches many jobs passes the same few numbers for each.
local number_texts = {}

local function as_text(n)
  local text = number_texts[n]
  if not text then
    text = string.format('%d', n)
    number_texts[n] = text
  end
  return text
end

-- A reservation is 'day|class|cost|expires_ms'.
local function parse_reservation(text)
  local day, class, cost, expires = string.match(text, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)$')
  return {day = day, class = class, cost = tonumber(cost), expires = tonumber(expires)}
end

-- Appends an event to the job's stream, capped at about `cap` events; `data` is JSON text. With no `cap` nothing is
-- trimmed: for the events that come once per end of a job (its first, its last), which cannot make a stream grow
-- without bound; trimming costs about a fifth of an XADD.
local function emit(base, id, kind, data, cap)
  if cap then
    redis.call('XADD', events_key(base, id), 'MAXLEN', '~', cap, '*', 'type', kind, 'data', data)
  else
    redis.call('XADD', events_key(base, id), '*', 'type', kind, 'data', data)
  end
end

-- `result` (JSON text) rides on a succeeded job's last event, so a listener has it without another request.
local function emit_state(base, id, state, attempt, cap, result)
  local extra = ''
  if result then extra = ',"result":' .. result end
  emit(base, id, 'status', '{"state":"' .. state .. '","attempt":' .. attempt .. extra .. '}', cap)
end

-- Writes that each job of a call makes to a shared key go out at the end of the call (`flush_batched()`), in one
-- command per key for the whole call instead of one per job: members of a sorted set (`later`), and the running
-- slots of identities whose jobs ended (`free_slot_later`). A script that calls either, or `finish`, calls
-- `flush_batched()` before it returns, and before it reads what they write (ScriptContractTests checks the first).
local batched, batched_order, freed_slots = {}, {}, {}

local function later(command, key, first, second)
  local by_key = batched[command]
  if not by_key then
    by_key = {}
    batched[command] = by_key
  end
  local args = by_key[key]
  if not args then
    args = {}
    by_key[key] = args
    batched_order[#batched_order + 1] = {command, key, args}
  end
  args[#args + 1] = first
  if second ~= nil then args[#args + 1] = second end
end

local function free_slot_later(base, tenant, identity)
  local key = running_key(base, tenant, identity)
  local slot = freed_slots[key]
  if slot then
    slot[4] = slot[4] + 1
  else
    slot = {base, tenant, identity, 1}
    freed_slots[key] = slot
    freed_slots[#freed_slots + 1] = slot
  end
end

-- Wakes one idle worker of the class (a worker blocks on this list); one token is enough.
local function wake(base, class)
  local key = wake_key(base, class)
  if redis.call('LLEN', key) == 0 then redis.call('LPUSH', key, '1') end
end

-- Puts a tenant in the class's rotation at the current virtual time, so a newly busy tenant neither
-- jumps ahead of the others nor waits behind their backlog.
local function activate(base, class, tenant)
  local key = active_key(base, class)
  if not redis.call('ZSCORE', key, tenant) then
    local clock = redis.call('GET', vclock_key(base, class)) or '0'
    redis.call('ZADD', key, clock, tenant)
  end
end

-- Makes a job claimable: to the tail of its tenant's ready list (or the head, for a job handed back). A caller that
-- knows the job's class, tenant and rank passes them; otherwise they are read.
local function make_ready(base, id, at_head, class, tenant, rank)
  if not class then class, tenant, rank = unpack(redis.call('HMGET', job_key(base, id), 'class', 'tenant', 'rank')) end
  local key = ready_key(base, class, tenant, rank)
  if at_head then redis.call('LPUSH', key, id) else redis.call('RPUSH', key, id) end
  activate(base, class, tenant)
  wake(base, class)
end

-- Holds a job back while its identity is at its running cap: highest priority first, then oldest first. The identity
-- joins `holders`, the index operators count held jobs by, until none of its jobs is held; only a held job pays.
local function hold(base, tenant, identity, id, rank, created)
  redis.call('ZADD', held_key(base, tenant, identity), tonumber(rank) * 1e13 + tonumber(created), id)
  redis.call('SADD', holders_key(base), tenant .. ':' .. identity)
end

-- Takes the identity out of `holders` once nothing of its is held, so the index names no identity longer than needed.
local function forget_holder_if_none_held(base, tenant, identity)
  if redis.call('ZCARD', held_key(base, tenant, identity)) == 0 then redis.call('SREM', holders_key(base), tenant .. ':' .. identity) end
end

-- Returns the first job the identity's running cap held back to the head of its list.
local function release_held(base, tenant, identity)
  local held = redis.call('ZPOPMIN', held_key(base, tenant, identity))
  if #held > 0 then
    make_ready(base, held[1], true)
    forget_holder_if_none_held(base, tenant, identity)
  end
end

-- `count` running jobs of this identity ended: their slots free, and as many held jobs return, one for each.
local function release_slot(base, tenant, identity, count)
  count = count or 1
  local key = running_key(base, tenant, identity)
  if tonumber(redis.call('DECRBY', key, count)) <= 0 then redis.call('DEL', key) end
  local held = redis.call('ZPOPMIN', held_key(base, tenant, identity), count)
  for i = 1, #held, 2 do make_ready(base, held[i], true) end
  if #held > 0 then forget_holder_if_none_held(base, tenant, identity) end
end

-- Writes what `later` and `free_slot_later` put off. Lua's unpack takes a few thousand values at most: 1000 a command.
local function flush_batched()
  for _, slot in ipairs(freed_slots) do release_slot(slot[1], slot[2], slot[3], slot[4]) end
  for _, entry in ipairs(batched_order) do
    local command, key, args = entry[1], entry[2], entry[3]
    for first = 1, #args, 1000 do redis.call(command, key, unpack(args, first, math.min(first + 999, #args))) end
  end
  batched, batched_order, freed_slots = {}, {}, {}
end

-- A threshold tripped for a subject: the first time in a quota day it waits `cooldown_ms`, any later time it is
-- blocked for `block_ms`, with the signal as the block's reason. In shadow mode nothing is enforced. Either way the
-- trip is logged to the abuse stream (what operators read to tune thresholds). Returns the action and its duration.
local function escalate(base, tenant, subject, day, signal, shadow, cooldown_ms, block_ms, now)
  local quota = quota_key(base, tenant, subject, day)
  local trips = redis.call('HINCRBY', quota, 'trips', 1)
  -- A trip may be the day's first write: its counters live as long as any day's (OwnedIndex.dayKeyLifetime).
  redis.call('PEXPIRE', quota, 3 * 86400000, 'NX')
  local action, duration = 'cooldown', tonumber(cooldown_ms)
  if trips > 1 then action, duration = 'block', tonumber(block_ms) end
  if shadow == '1' then
    action = 'shadow_' .. action
  else
    redis.call('SET', block_key(base, tenant, subject), signal, 'PX', duration)
    redis.call('ZADD', blocks_key(base), now + duration, tenant .. ':' .. subject)
  end
  redis.call('XADD', abuse_log_key(base), 'MAXLEN', '~', 10000, '*', 'tenant', tenant, 'subject', subject, 'signal', signal,
    'action', action, 'duration_ms', duration)
  return action, duration
end

-- Whether a ratio threshold trips: at least min_count, and more than ratio of `total` (RatioThreshold.isExceeded).
local function ratio_trips(min_count, ratio, count, total)
  return count >= tonumber(min_count) and count > tonumber(ratio) * total
end

-- A metered job ended: its reserved units are committed when it succeeded, otherwise released, up to the subject's
-- refund cap for the day it was reserved on (beyond it, they are charged). Once only: the reservation goes. What
-- it cost stays on the job ('q_charge': 'outcome|day|class|units|subject') for the ledger; returns that, or nil.
-- `metered` is false when the caller knows the job is unmetered, which spares reading it.
local function settle_reservation(base, id, state, error_code, now, metered)
  if metered == false then return nil end
  local key = job_key(base, id)
  local tenant, subject, refund_cap, abuse = unpack(redis.call('HMGET', key, 'tenant', 'q_subject', 'q_refund_cap', 'q_abuse'))
  if not subject then return nil end
  local reservations = reservations_key(base, tenant, subject)
  local entry = redis.call('HGET', reservations, id)
  if not entry then return nil end
  redis.call('HDEL', reservations, id)
  local r = parse_reservation(entry)
  local quota = quota_key(base, tenant, subject, r.day)
  redis.call('HINCRBY', quota, 'rsv:' .. r.class, -r.cost)
  local outcome = 'committed'
  if state ~= 'succeeded' and tonumber(redis.call('HGET', quota, 'refunded') or '0') + r.cost <= tonumber(refund_cap) then
    outcome = 'released'
    redis.call('HINCRBY', quota, 'refunded', r.cost)
  else
    redis.call('HINCRBY', quota, 'used:' .. r.class, r.cost)
  end
  local charge = outcome .. '|' .. r.day .. '|' .. r.class .. '|' .. r.cost .. '|' .. subject
  redis.call('HSET', key, 'q_charge', charge)

  -- Refunds and safety rejections as a share of the day's jobs: failing or probing on purpose escalates.
  -- q_abuse: 'shadow|cooldown_ms|block_ms|refund_min|refund_ratio|safety_min|safety_ratio'
  local shadow, cooldown_ms, block_ms, refund_min, refund_ratio, safety_min, safety_ratio =
    string.match(abuse, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)$')
  local jobs = tonumber(redis.call('HGET', quota, 'jobs') or '0')
  if outcome == 'released' then
    local releases = redis.call('HINCRBY', quota, 'releases', 1)
    if ratio_trips(refund_min, refund_ratio, releases, jobs) then
      escalate(base, tenant, subject, r.day, 'refund_ratio', shadow, cooldown_ms, block_ms, now)
    end
  end
  if error_code == 'content_rejected' or error_code == 'content_filtered' then
    local rejections = redis.call('HINCRBY', quota, 'safety', 1)
    if ratio_trips(safety_min, safety_ratio, rejections, jobs) then
      escalate(base, tenant, subject, r.day, 'safety_rejections', shadow, cooldown_ms, block_ms, now)
    end
  end
  return charge
end

-- A job reached a terminal state: it waits in `unrecorded` until a worker has written it to PostgreSQL (added by
-- `flush_batched()`). `fields` are more hash fields (name, value, …) set in the same write: the result, or the error;
-- `metered` is as `settle_reservation` takes it. Its last event is not trimmed: a job ends once per run.
-- Returns what the job cost its quota subject ('' when unmetered), as `settle_reservation` describes it.
local function finish(base, id, state, now, attempt, fields, result, metered)
  redis.call('HSET', job_key(base, id), 'state', state, 'finished', as_text(now), unpack(fields))
  local error_code = fields[1] == 'err_code' and fields[2] or ''
  local charge = settle_reservation(base, id, state, error_code, now, metered)
  later('ZADD', unrecorded_key(base), as_text(now), id)
  if state == 'dead' or state == 'failed' then redis.call('ZADD', dead_key(base), now, id) end
  emit_state(base, id, state, attempt, nil, result)
  return charge or ''
end

local function error_fields(code, message) return {'err_code', code, 'err_msg', message} end

-- The index of what an identity owns on a shard (`owned_key`, docs/privacy.md): 'j:<id>' for each of its jobs and
-- 'k:<key>' for each key that points at one (an idempotency record, a device's cooldown), scored by when it expires
-- ('+inf' while it does not). Erasure reads it instead of walking the shard. Members past their expiry go at each
-- change, and the index expires with its last member.
local function owned_changed(key, now)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. now)
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if #last == 0 then return end
  if last[2] == 'inf' then redis.call('PERSIST', key) else redis.call('PEXPIREAT', key, last[2]) end
end

-- Lists members in the identity's index: `scored` is {expires, member, …}, each expiry in ms or '+inf'.
local function own(base, tenant, identity, now, scored)
  local key = owned_key(base, tenant, identity)
  redis.call('ZADD', key, unpack(scored))
  owned_changed(key, now)
end

-- A listed job's hash now expires at `expires` (ms). A job an earlier release enqueued stays unlisted, as it was.
local function owned_job_expires(base, tenant, identity, id, expires, now)
  if not tenant or not identity then return end
  local key = owned_key(base, tenant, identity)
  if redis.call('ZADD', key, 'XX', 'CH', expires, 'j:' .. id) == 1 then owned_changed(key, now) end
end

-- A job's hash went for good: it leaves its owner's index.
local function disown_job(base, tenant, identity, id, now)
  if not tenant or not identity then return end
  local key = owned_key(base, tenant, identity)
  if redis.call('ZREM', key, 'j:' .. id) == 1 then owned_changed(key, now) end
end
