-- Appends a progress or text-delta event for a running attempt; a fenced-off attempt adds nothing.
-- KEYS: job
-- ARGV: base, id, attempt, type, data, stream_cap, progress (or '')
local job = KEYS[1]
local base, id, attempt, kind, data, stream_cap, progress = unpack(ARGV)
local current, state = unpack(redis.call('HMGET', job, 'attempt', 'state'))
if current ~= attempt or state ~= 'running' then return 0 end
if progress ~= '' then redis.call('HSET', job, 'progress', progress) end
emit(base, id, kind, data, stream_cap)
return 1
