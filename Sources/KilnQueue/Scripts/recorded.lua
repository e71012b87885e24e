-- Marks jobs as written to PostgreSQL: they leave `unrecorded`, and a finished job's hash and events expire
-- after the retention period (PostgreSQL keeps the record). Failed and dead jobs stay until replayed or purged.
-- A job that finished again since it was read (replayed, then finished anew) keeps its place for its newer record.
-- KEYS: unrecorded
-- ARGV: base, retention_s, then per job: id, the `finished` time that was recorded ('' for a job that is gone)
local unrecorded = KEYS[1]
local base, retention = ARGV[1], ARGV[2]
for i = 3, #ARGV, 2 do
  local id, recorded_finish = ARGV[i], ARGV[i + 1]
  local state, finished = unpack(redis.call('HMGET', job_key(base, id), 'state', 'finished'))
  if recorded_finish == '' or finished == recorded_finish then
    redis.call('ZREM', unrecorded, id)
    if state == 'succeeded' or state == 'cancelled' then
      redis.call('EXPIRE', job_key(base, id), retention)
      redis.call('EXPIRE', events_key(base, id), retention)
    end
  end
end
return (#ARGV - 2) / 2
