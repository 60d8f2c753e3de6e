// The Lua scripts behind tenure/redis, each one atomic on the server (design rule 9).
//
// Per lease key K two Redis keys, in one hash slot (the `{K}` hash tag), so the scripts also
// run on a Redis Cluster node:
//   <prefix>{K}:lease  a hash that never expires: `token` (the key's token counter: the last
//                      token issued, raised by HINCRBY only on a new grant), `holder`, `session`
//   <prefix>{K}:live   a string holding the live lease's token, with PX = the granted ttl: the
//                      lease is valid exactly while Redis keeps this key (Redis's own clock)
// Tokens are compared as decimal strings, never as Lua numbers (doubles), so every u64 digit
// counts.

/** Acquire: KEYS = lease, live; ARGV = holder, session, ttl (whole ms). */
export const ACQUIRE = `
local holder, session, ttl = ARGV[1], ARGV[2], ARGV[3]
local live = redis.call('GET', KEYS[2])
if live then
  local rec = redis.call('HMGET', KEYS[1], 'holder', 'session', 'token')
  if rec[1] == holder and rec[2] == session and rec[3] == live then
    -- the current holder asks again (its grant reply was lost): same token, extended
    redis.call('PEXPIRE', KEYS[2], ttl)
    return {'Granted', live, ttl}
  end
  local reply = {'Held', redis.call('PTTL', KEYS[2])}
  if rec[1] then reply[3] = rec[1] end
  return reply
end
local bumped = redis.pcall('HINCRBY', KEYS[1], 'token', 1)
if type(bumped) == 'table' and bumped.err then
  if string.find(bumped.err, 'overflow', 1, true) then return {'Rejected', 'TokensExhausted'} end
  return bumped
end
local token = redis.call('HGET', KEYS[1], 'token')
redis.call('HSET', KEYS[1], 'holder', holder, 'session', session)
redis.call('SET', KEYS[2], token, 'PX', ttl)
return {'Granted', token, ttl}
`;

/** Renew: KEYS = lease, live; ARGV = holder, session, token, ttl (whole ms). */
export const RENEW = `
local holder, session, token, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local rec = redis.call('HMGET', KEYS[1], 'holder', 'session', 'token')
if not rec[3] or rec[1] ~= holder or rec[2] ~= session then return {'Rejected', 'NotHolder'} end
if rec[3] ~= token then return {'Rejected', 'TokenMismatch'} end
if redis.call('GET', KEYS[2]) ~= token then return {'Rejected', 'Expired'} end
redis.call('PEXPIRE', KEYS[2], ttl)
return {'Renewed', token, ttl}
`;

/** Release: KEYS = lease, live; ARGV = holder, session, token. Releasing twice is harmless. */
export const RELEASE = `
local holder, session, token = ARGV[1], ARGV[2], ARGV[3]
local rec = redis.call('HMGET', KEYS[1], 'holder', 'session', 'token')
if not rec[3] or rec[1] ~= holder or rec[2] ~= session then return {'Rejected', 'NotHolder'} end
if rec[3] ~= token then return {'Rejected', 'TokenMismatch'} end
if redis.call('GET', KEYS[2]) == token then redis.call('DEL', KEYS[2]) end
return {'Released'}
`;

/**
 * The fenced resource's check-and-set: KEYS = the resource hash (`token`, `value`);
 * ARGV = token, mode ("write", "establish" or "check"), value. Accepts a token >= the
 * highest seen (design rule 1). Answers {1, highest before} or {0, highest}.
 */
export const FENCE = `
local token, mode = ARGV[1], ARGV[2]
local highest = redis.call('HGET', KEYS[1], 'token') or '0'
if #token < #highest or (#token == #highest and token < highest) then
  return {0, highest}
end
if mode ~= 'check' then
  redis.call('HSET', KEYS[1], 'token', token)
  if mode == 'write' then redis.call('HSET', KEYS[1], 'value', ARGV[3]) end
end
return {1, highest}
`;
