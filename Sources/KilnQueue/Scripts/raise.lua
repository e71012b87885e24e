-- Raises a quota day's counters to at least the given values (the ledger's), leaving higher ones alone: Redis may
-- be ahead of the ledger (jobs settled but not yet recorded), never rightly behind it.
-- KEYS: quota (one subject's counters of one day)
-- ARGV: ttl_ms for a key that has none (one rebuilt after Redis lost it), then field, value pairs
-- Returns how many counters were raised.
local quota, ttl = KEYS[1], ARGV[1]
local raised = 0
for i = 2, #ARGV, 2 do
  if tonumber(redis.call('HGET', quota, ARGV[i]) or '0') < tonumber(ARGV[i + 1]) then
    redis.call('HSET', quota, ARGV[i], ARGV[i + 1])
    raised = raised + 1
  end
end
if raised > 0 and redis.call('PTTL', quota) < 0 then redis.call('PEXPIRE', quota, ttl) end
return raised
