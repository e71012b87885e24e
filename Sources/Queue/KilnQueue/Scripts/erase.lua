-- Erases jobs of one identity (docs/privacy.md). A job that has not started goes at once, its reserved units
-- released; a running one is asked to stop, as a cancellation does; a finished one goes with its events, once
-- PostgreSQL holds its record (before that a worker could still write the record after PostgreSQL's copy was
-- erased). Jobs that are not the identity's are left alone.
-- KEYS: delayed, dead, unrecorded
-- ARGV: base, tenant, identity
-- ARGV each: id
-- RETURNS: erased, pending
-- Both are lists of job ids; pending jobs are running, or finished and not yet recorded.
local now = now_ms()
local erased, pending = {}, {}
for id in each_item() do
  local key = job_key(base, id)
  local owner, who, state, class, rank = unpack(redis.call('HMGET', key, 'tenant', 'identity', 'state', 'class', 'rank'))
  if owner == tenant and who == identity then
    if state == 'running' then
      redis.call('HSET', key, 'cancel', '1')
      pending[#pending + 1] = id
    elseif state == 'queued' or state == 'retrying' then
      redis.call('LREM', ready_key(base, class, tenant, rank), 1, id)
      if redis.call('ZREM', held_key(base, tenant, identity), id) == 1 then forget_holder_if_none_held(base, tenant, identity) end
      redis.call('ZREM', delayed, id)
      settle_reservation(base, id, 'cancelled', 'cancelled', now)
      redis.call('DEL', key, events_key(base, id))
      disown_job(base, tenant, identity, id, now)
      erased[#erased + 1] = id
    elseif redis.call('ZSCORE', unrecorded, id) then
      pending[#pending + 1] = id
    else
      redis.call('ZREM', dead, id)
      redis.call('DEL', key, events_key(base, id))
      disown_job(base, tenant, identity, id, now)
      erased[#erased + 1] = id
    end
  end
end
return {erased, pending}
