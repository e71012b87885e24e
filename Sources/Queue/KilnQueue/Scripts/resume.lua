-- Resumes a paused lane: a class (`tenant` is '') or a tenant. Its claimers are woken: for a tenant, the tenant goes
-- back into the rotation of each class in which it has ready jobs (at the current virtual time, as a tenant that
-- becomes busy does), and that class's idle workers are woken.
-- KEYS: paused
-- ARGV: base, lane, tenant
-- ARGV each: class
-- RETURNS: resumed
-- lane is the member of `paused` (`class:<name>` or `tenant:<id>`); resumed is 1, or 0 when it was not paused.
local resumed = redis.call('SREM', paused, lane)
for class in each_item() do
  if tenant == '' then
    wake(base, class)
  else
    local waiting = 0
    for rank = 0, 2 do waiting = waiting + redis.call('LLEN', ready_key(base, class, tenant, rank)) end
    if waiting > 0 then
      activate(base, class, tenant)
      wake(base, class)
    end
  end
end
return resumed
