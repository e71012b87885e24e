-- Appends progress and text-delta events for running attempts, of one job or of many in one call; a fenced-off
-- attempt adds nothing.
-- KEYS: first_job
-- ARGV: base, stream_cap
-- ARGV each: id, attempt, kind, data, progress
-- RETURNS:
-- RETURNS each: appended
-- first_job is the first item's job: the call goes to its shard, which holds every item's keys. kind is the event's
-- type; progress is '' when the event reports none. The reply is one value per item, in order: appended is 1, or 0
-- when the item's attempt was fenced off.
local appended = {}
for id, attempt, kind, data, progress in each_item() do
  local job = job_key(base, id)
  local current, state = unpack(redis.call('HMGET', job, 'attempt', 'state'))
  if current ~= attempt or state ~= 'running' then
    appended[#appended + 1] = 0
  else
    if progress ~= '' then redis.call('HSET', job, 'progress', progress) end
    emit(base, id, kind, data, stream_cap)
    appended[#appended + 1] = 1
  end
end
return appended
