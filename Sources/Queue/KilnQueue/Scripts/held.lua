-- Counts the jobs that running caps hold back, by tenant, from the identities in `holders` (hold() adds them; the
-- scripts that take held jobs out drop them once none is left), dropping any with nothing held that a purge left.
-- KEYS: holders
-- ARGV: base
-- RETURNS: held
-- RETURNS each: tenant, count
-- held is the total; each tenant with held jobs follows with its count.
local counts, tenants, total = {}, {}, 0
for _, member in ipairs(redis.call('SMEMBERS', holders)) do
  local tenant, identity = string.match(member, '^([^:]*):(.*)$')
  local count = redis.call('ZCARD', held_key(base, tenant, identity))
  if count == 0 then
    redis.call('SREM', holders, member)
  else
    if not counts[tenant] then
      counts[tenant] = 0
      tenants[#tenants + 1] = tenant
    end
    counts[tenant] = counts[tenant] + count
    total = total + count
  end
end
local reply = {total}
for _, tenant in ipairs(tenants) do
  reply[#reply + 1] = tenant
  reply[#reply + 1] = counts[tenant]
end
return reply
