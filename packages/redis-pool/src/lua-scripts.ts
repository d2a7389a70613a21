import { createHash } from 'node:crypto';

/** A Lua script with its SHA-1, run with EVALSHA (falling back to EVAL after a server restart). Internal. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

function script(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/**
 * Opens (or joins) a pool. KEYS: meta. ARGV: canonical config text. Creates the counters on first use;
 * afterwards refuses a different config. Returns { config, inserts, updates }.
 */
export const OPEN_SCRIPT: LuaScript = script(`
local current = redis.call('HGET', KEYS[1], 'config')
if current and ARGV[1] ~= '' and current ~= ARGV[1] then
  return redis.error_reply('FTW_CONFIG_MISMATCH ' .. current)
end
if not current then
  if ARGV[1] == '' then return redis.error_reply('FTW_POOL_NOT_FOUND') end
  redis.call('HSET', KEYS[1], 'config', ARGV[1], 'inserts', 0, 'updates', 0)
  current = ARGV[1]
end
return { current, redis.call('HGET', KEYS[1], 'inserts'), redis.call('HGET', KEYS[1], 'updates') }
`);

/**
 * Pushes trajectories, each its own stream entry, in order. KEYS: stream, meta, ids (hash: trajectory id →
 * entry id), id order (list of the same ids, newest first). ARGV: trim threshold, ids remembered D,
 * limited ('1'/'0'), ratio r, min size m, tolerance e, then (trajectory id, bytes) per trajectory.
 *
 * A trajectory whose id is in the ids hash was pushed before: it is not added again, and its first entry
 * id is returned. Otherwise, with the rate limit on, an insert is allowed iff inserts + 1 <= m or
 * r (inserts + 1) - updates <= r m + e; the first refusal stops the batch (the rest are not added). Each
 * insert records its id in the hash and at the head of the list and, once the list holds more than D ids,
 * forgets the oldest (from both), so both hold exactly the ids of the newest min(inserts, D) inserts.
 * Returns { added-or-duplicate flag (1 new, 0 duplicate), entry id } for each trajectory handled.
 */
export const PUSH_SCRIPT: LuaScript = script(`
local inserts = tonumber(redis.call('HGET', KEYS[2], 'inserts'))
if not inserts then return redis.error_reply('FTW_POOL_NOT_FOUND') end
local remembered = tonumber(ARGV[2])
local limited = ARGV[3] == '1'
local updates, ratio, minSize, maxDiff = 0, 0, 0, 0
if limited then
  updates = tonumber(redis.call('HGET', KEYS[2], 'updates'))
  ratio = tonumber(ARGV[4])
  minSize = tonumber(ARGV[5])
  maxDiff = ratio * minSize + tonumber(ARGV[6])
end
local out = {}
local added = 0
for a = 7, #ARGV, 2 do
  local existing = redis.call('HGET', KEYS[3], ARGV[a])
  if existing then
    out[#out + 1] = 0
    out[#out + 1] = existing
  else
    if limited and inserts + 1 > minSize and (inserts + 1) * ratio - updates > maxDiff then break end
    inserts = inserts + 1
    local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*',
      'id', ARGV[a], 'n', string.format('%d', inserts), 't', ARGV[a + 1])
    redis.call('HSET', KEYS[3], ARGV[a], id)
    if redis.call('LPUSH', KEYS[4], ARGV[a]) > remembered then
      redis.call('HDEL', KEYS[3], redis.call('RPOP', KEYS[4]))
    end
    added = added + 1
    out[#out + 1] = 1
    out[#out + 1] = id
  end
end
if added > 0 then redis.call('HSET', KEYS[2], 'inserts', string.format('%d', inserts)) end
return out
`);

/**
 * Grants the learner's update number u (its count of updates once this one is done). KEYS: meta.
 * ARGV: u, limited, ratio r, min size m, tolerance e. Idempotent: u already granted returns granted.
 * With the rate limit on, granted iff inserts >= m and r inserts - u >= r m - e.
 * Returns { granted (1/0), inserts, updates }.
 */
export const UPDATE_SCRIPT: LuaScript = script(`
local inserts = tonumber(redis.call('HGET', KEYS[1], 'inserts'))
if not inserts then return redis.error_reply('FTW_POOL_NOT_FOUND') end
local updates = tonumber(redis.call('HGET', KEYS[1], 'updates'))
local target = tonumber(ARGV[1])
if updates >= target then return { 1, inserts, updates } end
if ARGV[2] == '1' then
  local ratio = tonumber(ARGV[3])
  local minSize = tonumber(ARGV[4])
  if inserts < minSize or inserts * ratio - target < ratio * minSize - tonumber(ARGV[5]) then
    return { 0, inserts, updates }
  end
end
redis.call('HSET', KEYS[1], 'updates', ARGV[1])
return { 1, inserts, target }
`);

/**
 * Publishes a policy snapshot: version, parameters and the snapshot's version (`base`) in one HSET, and
 * drops the deltas of the snapshot before, only if the version is above the current one (the same version
 * with the same parameters, as a snapshot, counts as already done, so a retry is harmless).
 * Announces the version on the policy channel (`PUBLISH`, for followers that watch it).
 * KEYS: policy, deltas. ARGV: version, parameters, channel. Returns 1 when written, 0 when it was already
 * there.
 */
export const PUBLISH_SCRIPT: LuaScript = script(`
local current = redis.call('HGET', KEYS[1], 'version')
if current then
  local base = redis.call('HGET', KEYS[1], 'base') or current
  if tonumber(ARGV[1]) == tonumber(current) and base == current
    and redis.call('HGET', KEYS[1], 'parameters') == ARGV[2] then
    return 0
  end
  if tonumber(ARGV[1]) <= tonumber(current) then
    return redis.error_reply('FTW_VERSION_NOT_NEWER ' .. current)
  end
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'base', ARGV[1], 'parameters', ARGV[2])
redis.call('DEL', KEYS[2])
redis.call('PUBLISH', ARGV[3], ARGV[1])
return 1
`);

/**
 * Publishes a policy delta: appends it to the deltas stream with the id `<version>-1` and moves the
 * policy's version, in one script, only if a snapshot exists and the version is above the current one (the
 * same version with the same bytes, as the last delta, counts as already done).
 * Announces the version on the policy channel.
 * KEYS: policy, deltas. ARGV: version, delta, channel. Returns 1 when written, 0 when it was already there.
 */
export const PUBLISH_DELTA_SCRIPT: LuaScript = script(`
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return redis.error_reply('FTW_NO_POLICY') end
if tonumber(ARGV[1]) == tonumber(current) then
  local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)[1]
  if last and last[1] == ARGV[1] .. '-1' and last[2][2] == ARGV[2] then return 0 end
end
if tonumber(ARGV[1]) <= tonumber(current) then
  return redis.error_reply('FTW_VERSION_NOT_NEWER ' .. current)
end
redis.call('XADD', KEYS[2], ARGV[1] .. '-1', 'd', ARGV[2])
redis.call('HSET', KEYS[1], 'version', ARGV[1])
redis.call('PUBLISH', ARGV[3], ARGV[1])
return 1
`);

/**
 * What a reader holding version `since` (-1 for none) needs to reach the newest version, read in one
 * script so that snapshot and deltas always match. KEYS: policy, deltas. ARGV: since.
 * Returns nil when no policy exists; { version } when `since` is the newest; { version, '', '', deltas }
 * when the deltas after `since` reach it (`since` is the snapshot's version or a delta's); otherwise
 * { version, base, parameters, deltas } with every delta after the snapshot. `deltas` is XRANGE's reply.
 */
export const READ_POLICY_SCRIPT: LuaScript = script(`
local head = redis.call('HMGET', KEYS[1], 'version', 'base')
if not head[1] then return false end
local version = tonumber(head[1])
local base = head[2] or head[1]
local since = tonumber(ARGV[1])
if since == version then return { head[1] } end
local held = since == tonumber(base)
if not held and since > tonumber(base) and since < version then
  local id = string.format('%.0f', since) .. '-1'
  held = redis.call('XRANGE', KEYS[2], id, id)[1] ~= nil
end
if held then
  return { head[1], '', '', redis.call('XRANGE', KEYS[2], string.format('%.0f', since + 1) .. '-0', '+') }
end
local parameters = redis.call('HGET', KEYS[1], 'parameters')
return { head[1], base, parameters, redis.call('XRANGE', KEYS[2], '-', '+') }
`);
