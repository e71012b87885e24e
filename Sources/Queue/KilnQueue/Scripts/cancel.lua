-- Cancels a job for its owner: a waiting job at once, a running one by asking its worker (told at its next
-- lease renewal, within a second).
-- KEYS: job, delayed
-- ARGV: base, id, tenant, identity
-- RETURNS cancelled:
-- RETURNS requested:
-- RETURNS not_found:
-- RETURNS finished: state
local owner, who, state, class, rank, cap, attempt = unpack(redis.call('HMGET', job, 'tenant', 'identity', 'state', 'class', 'rank', 'cap', 'attempt'))
if owner ~= tenant or who ~= identity then return {'not_found'} end
if state == 'running' then
  redis.call('HSET', job, 'cancel', '1')
  return {'requested'}
end
if state ~= 'queued' and state ~= 'retrying' then return {'finished', state} end
redis.call('LREM', ready_key(base, class, tenant, rank), 1, id)
if redis.call('ZREM', held_key(base, tenant, identity), id) == 1 then forget_holder_if_none_held(base, tenant, identity) end
redis.call('ZREM', delayed, id)
finish(base, id, 'cancelled', now_ms(), attempt, error_fields('cancelled', 'cancelled by its owner'))
flush_batched()
-- The cancelled job may have been the one a freed slot released from the held set: release the next one.
if tonumber(redis.call('GET', running_key(base, tenant, identity)) or '0') < tonumber(cap) then release_held(base, tenant, identity) end
return {'cancelled'}
