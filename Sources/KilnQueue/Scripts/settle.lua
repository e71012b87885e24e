-- Settles finished attempts in one call, each fenced by its attempt number: an attempt whose lease was lost
-- (the job was recovered and claimed again) changes nothing.
-- KEYS: inflight, delayed
-- ARGV: base, stream_cap, then per job 6 values: id, attempt, outcome, payload, error_code, delay_ms
--   outcome: succeeded (payload = result JSON) | retry (payload = message; dead once attempts run out)
--            | failed (permanent: payload = message) | cancelled | throttled (retry after delay_ms without
--            spending the attempt) | released (handed back at shutdown, to the head of its list, attempt unspent)
-- Returns per job: the job's new state, or 'fenced'.
local inflight, delayed = KEYS[1], KEYS[2]
local base, stream_cap = ARGV[1], ARGV[2]
local now = now_ms()
local replies = {}

for i = 3, #ARGV, 6 do
  local id, attempt, outcome, payload, code, delay_ms = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5]
  local key = job_key(base, id)
  local current, state, tenant, identity, tries, max_attempts, cancel, failed_before, class = unpack(redis.call('HMGET', key, 'attempt', 'state', 'tenant', 'identity', 'tries', 'max', 'cancel', 'err_code', 'class'))
  if current ~= attempt or state ~= 'running' or redis.call('ZREM', inflight, id) == 0 then
    replies[#replies + 1] = 'fenced'
  else
    release_slot(base, tenant, identity)
    local new_state
    if outcome == 'succeeded' then
      -- An earlier attempt's error no longer describes the job.
      if failed_before then redis.call('HDEL', key, 'err_code', 'err_msg') end
      emit(base, id, 'result', payload, stream_cap)
      new_state = 'succeeded'
      finish(base, id, new_state, now, stream_cap, attempt, {'result', payload})
    elseif outcome == 'cancelled' or cancel == '1' then
      -- Cancelled by its handler, or failed or handed back after its owner asked to cancel it: it ends here.
      if outcome ~= 'cancelled' then payload = 'cancelled by its owner' end
      new_state = 'cancelled'
      finish(base, id, new_state, now, stream_cap, attempt, error_fields('cancelled', payload))
    elseif outcome == 'failed' then
      new_state = 'failed'
      finish(base, id, new_state, now, stream_cap, attempt, error_fields(code, payload))
    elseif outcome == 'retry' and tonumber(tries) >= tonumber(max_attempts) then
      new_state = 'dead'
      finish(base, id, new_state, now, stream_cap, attempt, error_fields(code, payload))
    elseif outcome == 'released' then
      redis.call('HINCRBY', key, 'tries', -1)
      new_state = 'queued'
      redis.call('HSET', key, 'state', new_state)
      emit_state(base, id, new_state, attempt, stream_cap)
      make_ready(base, id, true)
    else
      -- retry or throttled: back after a delay; throttling does not spend the attempt.
      if outcome == 'throttled' then redis.call('HINCRBY', key, 'tries', -1) end
      new_state = 'retrying'
      redis.call('HSET', key, 'state', new_state, 'err_code', code, 'err_msg', payload)
      redis.call('ZADD', delayed, now + tonumber(delay_ms), id)
      emit_state(base, id, new_state, attempt, stream_cap)
      wake(base, class)
    end
    replies[#replies + 1] = new_state
  end
end
return replies
