-- Marks jobs as written to PostgreSQL: they leave `unrecorded`, and a finished job's hash and events expire
-- after the retention period (PostgreSQL keeps the record). Failed and dead jobs stay until replayed or purged.
-- KEYS: unrecorded
-- ARGV: base, retention_s
-- ARGV each: id, recorded_finish, state
-- RETURNS: marked
-- recorded_finish is the `finished` time that was recorded, state the state that was recorded.
local marked = 0
for id, recorded_finish, state in each_item() do
  marked = marked + 1
  -- A job's score in `unrecorded` is its finish time: one that was replayed and finished anew since it was recorded
  -- keeps its place for its newer record.
  if tonumber(redis.call('ZSCORE', unrecorded, id)) == tonumber(recorded_finish) then
    redis.call('ZREM', unrecorded, id)
    if state == 'succeeded' or state == 'cancelled' then
      redis.call('EXPIRE', job_key(base, id), retention_s)
      redis.call('EXPIRE', events_key(base, id), retention_s)
    end
  end
end
return marked
