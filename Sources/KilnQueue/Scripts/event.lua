-- Appends a progress or text-delta event for a running attempt; a fenced-off attempt adds nothing.
-- KEYS: job
-- ARGV: base, id, attempt, kind, data, stream_cap, progress
-- RETURNS: appended
-- kind is the event's type; progress is '' when the event reports none. appended is 1, or 0 when fenced off.
local current, state = unpack(redis.call('HMGET', job, 'attempt', 'state'))
if current ~= attempt or state ~= 'running' then return 0 end
if progress ~= '' then redis.call('HSET', job, 'progress', progress) end
emit(base, id, kind, data, stream_cap)
return 1
