-- Marks jobs as written to PostgreSQL: they leave `unrecorded`, and a finished job's hash and events expire
-- after the retention period (PostgreSQL keeps the record). Failed and dead jobs stay until replayed or purged.
-- KEYS: unrecorded
-- ARGV: base, retention_s, then job ids
local unrecorded = KEYS[1]
local base, retention = ARGV[1], ARGV[2]
for i = 3, #ARGV do
  local id = ARGV[i]
  redis.call('ZREM', unrecorded, id)
  local state = redis.call('HGET', job_key(base, id), 'state')
  if state == 'succeeded' or state == 'cancelled' then
    redis.call('EXPIRE', job_key(base, id), retention)
    redis.call('EXPIRE', events_key(base, id), retention)
  end
end
return #ARGV - 2
