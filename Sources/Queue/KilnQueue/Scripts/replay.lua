-- Moves a dead-lettered job back to its queue with a fresh set of attempts, and of lease losses.
-- KEYS: dead, job
-- ARGV: base, id, stream_cap
-- RETURNS: replayed
-- replayed is 1, or 0 when the job is not in the dead-letter set.
if redis.call('ZREM', dead, id) == 0 or redis.call('EXISTS', job) == 0 then return 0 end
redis.call('HSET', job, 'state', 'queued', 'tries', 0)
redis.call('HDEL', job, 'err_code', 'err_msg', 'finished', 'result', 'cancel', 'q_charge', 'lost')
emit_state(base, id, 'queued', redis.call('HGET', job, 'attempt'), stream_cap)
make_ready(base, id, false)
return 1
