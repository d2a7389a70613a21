import fc from 'fast-check';

// One seed for every property in the run, taken from the environment so that a CI failure replays
// exactly: `FC_SEED=<seed printed by .ci/run> pnpm test`. Without FC_SEED, fast-check draws a seed per
// property and prints it on failure.
const raw = process.env.FC_SEED;
if (raw !== undefined && raw !== '') {
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new RangeError(`FC_SEED must be an integer, got ${JSON.stringify(raw)}`);
  fc.configureGlobal({ seed });
}
