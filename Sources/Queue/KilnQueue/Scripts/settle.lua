-- Settles finished attempts in one call, each fenced by its attempt number: an attempt whose lease was lost
-- (the job was recovered and claimed again) changes nothing.
-- KEYS: inflight, delayed
-- ARGV: base, stream_cap
-- ARGV each: id, attempt, outcome, payload, code, delay_ms
-- RETURNS: settled_ms
-- RETURNS each: state, error_code, error_message, charge
--   outcome: succeeded (payload = result JSON) | retry (payload = message; dead once attempts run out)
--            | failed (permanent: payload = message) | cancelled | throttled (retry after delay_ms without
--            spending the attempt) | released (handed back at shutdown, to the head of its list, attempt unspent)
--   Each reply item is the job's new state (or 'fenced'), the error code and message it ended with ('' when it did
--   not end in an error), and what it cost its quota subject ('' when nothing: see finish).
local now = now_ms()
local replies = {now}

for id, attempt, outcome, payload, code, delay_ms in each_item() do
  local key = job_key(base, id)
  -- What a success needs; the rest only when the job does not succeed (each field read costs a scan of the hash).
  local current, state, tenant, identity, failed_before, subject =
    unpack(redis.call('HMGET', key, 'attempt', 'state', 'tenant', 'identity', 'err_code', 'q_subject'))
  -- A running job is in `inflight` (claim.lua puts it there and every script that changes its state takes it out in
  -- the same call), so its attempt and state are the whole fence; it leaves `inflight` with the others at the end.
  if current ~= attempt or state ~= 'running' then
    local r = #replies
    replies[r + 1], replies[r + 2], replies[r + 3], replies[r + 4] = 'fenced', '', '', ''
  else
    later('ZREM', inflight, id)
    free_slot_later(base, tenant, identity)
    -- How the job ends, if it ends here: its state, error code and error message.
    local ends, class
    if outcome == 'succeeded' then
      ends = {'succeeded', '', ''}
    else
      local tries, max_attempts, cancel
      tries, max_attempts, cancel, class = unpack(redis.call('HMGET', key, 'tries', 'max', 'cancel', 'class'))
      if outcome == 'cancelled' or cancel == '1' then
        -- Cancelled by its handler, or failed or handed back after its owner asked to cancel it.
        ends = {'cancelled', 'cancelled', outcome == 'cancelled' and payload or 'cancelled by its owner'}
      elseif outcome == 'failed' or (outcome == 'retry' and tonumber(tries) >= tonumber(max_attempts)) then
        ends = {outcome == 'failed' and 'failed' or 'dead', code, payload}
      end
    end
    -- An unmetered job has no reservation to settle, and nothing more is read; a metered one's is read where it is
    -- settled (nil: not known here).
    local metered
    if not subject then metered = false end
    local charge = ''
    if ends and ends[1] == 'succeeded' then
      -- An earlier attempt's error no longer describes the job.
      if failed_before then redis.call('HDEL', key, 'err_code', 'err_msg') end
      charge = finish(base, id, 'succeeded', now, attempt, {'result', payload}, payload, metered)
    elseif ends then
      charge = finish(base, id, ends[1], now, attempt, error_fields(ends[2], ends[3]), nil, metered)
    elseif outcome == 'released' then
      redis.call('HINCRBY', key, 'tries', -1)
      redis.call('HSET', key, 'state', 'queued')
      emit_state(base, id, 'queued', attempt, stream_cap)
      make_ready(base, id, true)
      ends = {'queued', '', ''}
    else
      -- retry or throttled: back after a delay; throttling does not spend the attempt.
      if outcome == 'throttled' then redis.call('HINCRBY', key, 'tries', -1) end
      redis.call('HSET', key, 'state', 'retrying', 'err_code', code, 'err_msg', payload)
      redis.call('ZADD', delayed, now + tonumber(delay_ms), id)
      emit_state(base, id, 'retrying', attempt, stream_cap)
      wake(base, class)
      ends = {'retrying', '', ''}
    end
    local r = #replies
    replies[r + 1], replies[r + 2], replies[r + 3], replies[r + 4] = ends[1], ends[2], ends[3], charge
  end
end
flush_batched()
return replies
