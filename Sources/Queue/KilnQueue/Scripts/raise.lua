-- Raises a quota day's counters to at least the given values (the ledger's), leaving higher ones alone: Redis may
-- be ahead of the ledger (jobs settled but not yet recorded), never rightly behind it.
-- KEYS: quota
-- ARGV: ttl_ms
-- ARGV each: field, value
-- RETURNS: raised
-- quota is one subject's counters of one day; ttl_ms is for a key that has none (one rebuilt after Redis lost it);
-- raised is how many counters were raised.
local raised = 0
for field, value in each_item() do
  if tonumber(redis.call('HGET', quota, field) or '0') < tonumber(value) then
    redis.call('HSET', quota, field, value)
    raised = raised + 1
  end
end
if raised > 0 and redis.call('PTTL', quota) < 0 then redis.call('PEXPIRE', quota, ttl_ms) end
return raised
