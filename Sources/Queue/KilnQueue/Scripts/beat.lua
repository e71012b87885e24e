-- A worker's heartbeat: its description in its hash, which expires unless the next beats renew it, its place in
-- `workers` by the time of this beat, and the attempts it settled since its last beat added to this minute's counters
-- and to this ten minutes' (a day's chart).
-- KEYS: workers, worker
-- ARGV: base, id, info, ttl_ms, retention_ms, history_retention_ms
-- ARGV each: field, count
-- RETURNS: beat_ms
-- info is the worker's description (JSON); a field is `c:<class>:<outcome>` or `t:<tenant>:<outcome>`. Workers that
-- missed their beats leave `workers` here, at the next beat of any worker.
local now = now_ms()
redis.call('HSET', worker, 'info', info, 'beat', now)
redis.call('PEXPIRE', worker, ttl_ms)
redis.call('ZADD', workers, now, id)
redis.call('ZREMRANGEBYSCORE', workers, '-inf', now - tonumber(ttl_ms))
local counters = throughput_key(base, math.floor(now / 60000))
local history = throughput_history_key(base, math.floor(now / 600000))
local counted = false
for field, count in each_item() do
  redis.call('HINCRBY', counters, field, count)
  redis.call('HINCRBY', history, field, count)
  counted = true
end
if counted then
  redis.call('PEXPIRE', counters, retention_ms)
  redis.call('PEXPIRE', history, history_retention_ms)
end
return now
