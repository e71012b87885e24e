-- Deletes the Redis copies of finished jobs whose record PostgreSQL holds, with their events: the retention purge
-- emptied the record's input or result, and the copy would go on answering with them until it expires. Only a job
-- that succeeded or was cancelled and is recorded goes; a failed or dead one stays for replay (the purge deletes dead
-- letters on their own schedule), and one replayed since runs on.
-- KEYS: unrecorded
-- ARGV: base
-- ARGV each: id
-- RETURNS: forgotten
-- forgotten is how many copies went.
local now = now_ms()
local forgotten = 0
for id in each_item() do
  local key = job_key(base, id)
  local state, tenant, identity = unpack(redis.call('HMGET', key, 'state', 'tenant', 'identity'))
  if (state == 'succeeded' or state == 'cancelled') and not redis.call('ZSCORE', unrecorded, id) then
    redis.call('DEL', key, events_key(base, id))
    disown_job(base, tenant, identity, id, now)
    forgotten = forgotten + 1
  end
end
return forgotten
