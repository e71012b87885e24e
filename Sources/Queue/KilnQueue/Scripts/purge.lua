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
for _, id in ipairs(ids) do
  redis.call('ZREM', dead, id)
  redis.call('ZREM', unrecorded_key(base), id)
  redis.call('DEL', job_key(base, id), events_key(base, id))
end
return #ids
