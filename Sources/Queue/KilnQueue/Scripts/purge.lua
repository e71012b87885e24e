-- Deletes dead-lettered jobs for good: one id, or every one when none is given.
-- KEYS: dead
-- ARGV: base, only
-- RETURNS: purged
-- only is the one job's id, or ''; purged is how many went.
local ids = {}
if only ~= '' then
  if redis.call('ZSCORE', dead, only) then ids = {only} end
else
  ids = redis.call('ZRANGE', dead, 0, -1)
end
local now = now_ms()
for _, id in ipairs(ids) do
  redis.call('ZREM', dead, id)
  redis.call('ZREM', unrecorded_key(base), id)
  local key = job_key(base, id)
  local tenant, identity = unpack(redis.call('HMGET', key, 'tenant', 'identity'))
  redis.call('DEL', key, events_key(base, id))
  disown_job(base, tenant, identity, id, now)
end
return #ids
