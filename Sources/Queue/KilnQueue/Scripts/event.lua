-- Appends progress and text-delta events for running attempts, of one job or of many in one call; a fenced-off
-- attempt adds nothing, and an event its attempt already wrote is not written again.
-- KEYS: first_job
-- ARGV: base, stream_cap
-- ARGV each: id, attempt, seq, kind, data, progress
-- RETURNS:
-- RETURNS each: appended
-- first_job is the first item's job: the call goes to its shard, which holds every item's keys. seq numbers an
-- attempt's events from 1, in the order it writes them; the job's hash keeps the last one written (seq:<attempt>), so
-- an event sent again because the answer to its write was lost (a timeout after Redis had run it) is appended once.
-- kind is the event's type; progress is '' when the event reports none. The reply is one value per item, in order:
-- appended is 1 (also for an event written before), or 0 when the item's attempt was fenced off.
local appended = {}
for id, attempt, seq, kind, data, progress in each_item() do
  local job = job_key(base, id)
  local written = 'seq:' .. attempt
  local current, state, last = unpack(redis.call('HMGET', job, 'attempt', 'state', written))
  if current ~= attempt or state ~= 'running' then
    appended[#appended + 1] = 0
  else
    if tonumber(last or '0') < tonumber(seq) then
      if progress ~= '' then
        redis.call('HSET', job, written, seq, 'progress', progress)
      else
        redis.call('HSET', job, written, seq)
      end
      emit(base, id, kind, data, stream_cap)
    end
    appended[#appended + 1] = 1
  end
end
return appended
