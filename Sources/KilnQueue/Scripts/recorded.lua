-- Marks jobs as written to PostgreSQL: they leave `unrecorded`, and a finished job's hash and events expire
-- after the retention period (PostgreSQL keeps the record). Failed and dead jobs stay until replayed or purged.
-- KEYS: unrecorded
-- ARGV: base, retention_s, then per job: id, the `finished` time that was recorded, the state that was recorded
local unrecorded = KEYS[1]
local base, retention = ARGV[1], ARGV[2]
for i = 3, #ARGV, 3 do
  local id, recorded_finish, state = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  -- A job's score in `unrecorded` is its finish time: one that was replayed and finished anew since it was recorded
  -- keeps its place for its newer record.
  if tonumber(redis.call('ZSCORE', unrecorded, id)) == tonumber(recorded_finish) then
    redis.call('ZREM', unrecorded, id)
    if state == 'succeeded' or state == 'cancelled' then
      redis.call('EXPIRE', job_key(base, id), retention)
      redis.call('EXPIRE', events_key(base, id), retention)
    end
  end
end
return (#ARGV - 2) / 3
