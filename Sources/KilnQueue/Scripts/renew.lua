-- Extends the leases of one worker's running jobs in one call.
-- KEYS: inflight
-- ARGV: base, lease_ms, then per job: id, attempt
-- Returns {lost ids, ids whose cancellation was requested}.
local inflight = KEYS[1]
local base, lease_ms = ARGV[1], ARGV[2]
local until_ms = now_ms() + tonumber(lease_ms)
local lost, cancel = {}, {}
for i = 3, #ARGV, 2 do
  local id, attempt = ARGV[i], ARGV[i + 1]
  local current, state, requested = unpack(redis.call('HMGET', job_key(base, id), 'attempt', 'state', 'cancel'))
  if current ~= attempt or state ~= 'running' or not redis.call('ZSCORE', inflight, id) then
    lost[#lost + 1] = id
  else
    redis.call('ZADD', inflight, 'XX', until_ms, id)
    if requested == '1' then cancel[#cancel + 1] = id end
  end
end
return {lost, cancel}
