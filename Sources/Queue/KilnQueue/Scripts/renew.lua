-- Extends the leases of one worker's running jobs in one call.
-- KEYS: inflight
-- ARGV: base, lease_ms
-- ARGV each: id, attempt
-- RETURNS: lost, cancel_requested
-- Both are lists of job ids: those whose lease was lost, and those whose cancellation was requested.
local until_ms = now_ms() + tonumber(lease_ms)
local lost, cancel = {}, {}
for id, attempt in each_item() do
  local current, state, requested = unpack(redis.call('HMGET', job_key(base, id), 'attempt', 'state', 'cancel'))
  if current ~= attempt or state ~= 'running' or not redis.call('ZSCORE', inflight, id) then
    lost[#lost + 1] = id
  else
    redis.call('ZADD', inflight, 'XX', until_ms, id)
    if requested == '1' then cancel[#cancel + 1] = id end
  end
end
return {lost, cancel}
