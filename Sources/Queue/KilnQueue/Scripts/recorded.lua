-- Marks jobs as written to PostgreSQL: they leave `unrecorded`, and a finished job's hash and events expire
-- after the retention period (PostgreSQL keeps the record). Failed and dead jobs stay until replayed or purged.
-- The hash's expiry is noted in its owner's index (`owned_job_expires`, common.lua).
-- KEYS: unrecorded
-- ARGV: base, retention_s
-- ARGV each: id, recorded_finish, state
-- RETURNS: marked
-- recorded_finish is the `finished` time that was recorded, state the state that was recorded.
local now = now_ms()
local expires = now + tonumber(retention_s) * 1000
local ids, finishes, states = {}, {}, {}
for id, recorded_finish, state in each_item() do
  ids[#ids + 1], finishes[#finishes + 1], states[#states + 1] = id, recorded_finish, state
end
-- A job's score in `unrecorded` is its finish time: one that was replayed and finished anew since it was recorded
-- keeps its place for its newer record. Scores are read, and members removed, a thousand at a time.
for first = 1, #ids, 1000 do
  local last = math.min(first + 999, #ids)
  local scores = redis.call('ZMSCORE', unrecorded, unpack(ids, first, last))
  local done = {}
  for i = first, last do
    local id = ids[i]
    if tonumber(scores[i - first + 1]) == tonumber(finishes[i]) then
      done[#done + 1] = id
      if states[i] == 'succeeded' or states[i] == 'cancelled' then
        local key = job_key(base, id)
        redis.call('EXPIRE', key, retention_s)
        redis.call('EXPIRE', events_key(base, id), retention_s)
        local tenant, identity = unpack(redis.call('HMGET', key, 'tenant', 'identity'))
        owned_job_expires(base, tenant, identity, id, expires, now)
      end
    end
  end
  if #done > 0 then redis.call('ZREM', unrecorded, unpack(done)) end
end
return #ids
