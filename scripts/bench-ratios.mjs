// Shared by every package's bench/index.mjs: runs mitata benchmarks, then prints each target's time as a
// ratio of the floor measured in the same run, with its goal beside it, and fails the process when a goal
// is missed.
//
// Machines here are shared: a burst of load on the other cores can slow the floor or the target alone
// by 50%. So the suite runs in several rounds (the first printed in full, the others quietly); each
// round gives a ratio of medians (p50 of the target over p50 of the floor), and the figure reported is
// the median of the rounds, with the range of all rounds beside it.
//
// Exit behaviour: when a comparison with a goal has a median ratio above it, runAndReport prints
// "NOT MET" on its line and a closing line counting the misses, and sets process.exitCode = 1, so the
// bench process exits non-zero once it has finished (everything is printed; nothing is cut short).
// `pnpm bench` (turbo, one package after another) then fails: it is a gate a person runs before
// claiming a figure. It is not part of CI, whose shared runners cannot hold timing goals.
import { run } from 'mitata';

const ROUNDS = 5;

/**
 * @typedef {object} Comparison
 * @property {string} target - the bench name of the measured operation.
 * @property {string} floor - the bench name of the floor it is compared with, measured in the same round.
 * @property {number} [goal] - the largest acceptable median ratio target / floor; a missed goal makes the
 * process exit non-zero.
 * @property {string} [note] - printed beside the verdict, to say what the goal is or why there is none
 * (for instance "for scale"); without a goal and a note the line says "(no goal)".
 * @property {number} [perIteration] - operations per benchmark iteration (both target and floor): the
 * times are then printed per operation (the ratio does not change).
 * @property {string} [unit] - what one operation is, for the printed times ("push", "episode"; default
 * "operation").
 */

/**
 * Runs the registered benchmarks for several rounds and prints, for each comparison, the median over the
 * rounds of (target p50 / floor p50), the range over the rounds, both medians in the round of median
 * ratio, and the goal with "met" or "NOT MET". When any goal is missed it also sets
 * `process.exitCode = 1`.
 * @param {() => void} register - registers the benchmarks with mitata's `bench` (called once per round:
 * mitata forgets them after each run).
 * @param {Comparison[]} comparisons - bench names to compare.
 * @param {{ rounds?: number }} [options] - `rounds`: how many rounds (odd; default 5).
 * @returns {Promise<boolean>} whether every median ratio met its goal.
 */
export async function runAndReport(register, comparisons, options = {}) {
  const rounds = options.rounds ?? ROUNDS;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds % 2 === 0)
    throw new RangeError(`rounds must be an odd positive integer, got ${rounds}`);
  const samples = comparisons.map(() => []);
  for (let round = 0; round < rounds; round++) {
    register();
    const { benchmarks } = await run({ format: round === 0 ? 'mitata' : 'quiet', colors: false });
    const stats = new Map();
    for (const trial of benchmarks) for (const r of trial.runs) if (r.stats) stats.set(r.name, r.stats);
    comparisons.forEach(({ target, floor }, i) => {
      const t = stats.get(target);
      const f = stats.get(floor);
      if (t === undefined || f === undefined)
        throw new Error(`no measurement for ${t === undefined ? target : floor}`);
      samples[i].push({ ratio: t.p50 / f.p50, target: t.p50, floor: f.p50 });
    });
  }
  console.log(
    `\nratios against the floor measured in the same round (median of ${rounds} rounds, lower is better):`,
  );
  let missed = 0;
  comparisons.forEach(({ target, floor, goal, note, perIteration = 1, unit = 'operation' }, i) => {
    const sorted = samples[i].toSorted((a, b) => a.ratio - b.ratio);
    const middle = sorted[(rounds - 1) / 2];
    const met = goal === undefined || middle.ratio <= goal;
    if (!met) missed++;
    const verdict =
      goal === undefined
        ? `(${note ?? 'no goal'})`
        : `(goal <= ${goal}×${note === undefined ? '' : `, ${note}`}) ${met ? 'met' : 'NOT MET'}`;
    const range = `rounds ${sorted[0].ratio.toFixed(2)}–${sorted.at(-1).ratio.toFixed(2)}`;
    const per = perIteration === 1 ? '' : ` per ${unit}`;
    const times = `${formatTime(middle.target / perIteration)} against ${formatTime(middle.floor / perIteration)}${per}`;
    console.log(`  ${target}: ${middle.ratio.toFixed(2)}× ${floor} (${range}; ${times}) ${verdict}`);
  });
  const goals = comparisons.filter((c) => c.goal !== undefined).length;
  if (missed > 0) {
    console.log(`${missed} of ${goals} goals NOT MET: exit code 1`);
    process.exitCode = 1;
  } else if (goals === 0) {
    console.log('no goals set: exit code 0');
  } else {
    console.log(`all ${goals} goals met`);
  }
  return missed === 0;
}

/** A mitata time (nanoseconds) with a unit. */
function formatTime(ns) {
  if (ns < 1e3) return `${ns.toFixed(1)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

/**
 * A cross-check in CPU time, steadier than wall clock on a shared machine (other processes inflate the
 * wall time of one benchmark more than another's): the floor and the target alternate in `rounds` rounds,
 * each run `floorCalls` / `targetCalls` times and timed in this process's CPU time (user + system), and
 * the median of the per-round ratios (target per call over floor per call) is printed with the rounds'
 * range, both times per call in the median round, and the goal. Printed for the record: the exit code
 * follows the mitata figures of {@link runAndReport}.
 * @param {object} check
 * @param {string} check.label - what is compared, printed first.
 * @param {(i: number) => unknown} check.target - one call of the measured operation (given its index).
 * @param {(i: number) => unknown} check.floor - one call of the floor.
 * @param {number} check.targetCalls - calls of `target` per round.
 * @param {number} check.floorCalls - calls of `floor` per round.
 * @param {number} [check.rounds] - rounds, odd (default 41).
 * @param {number} [check.goal] - the largest acceptable median ratio, printed with "met" or "NOT MET".
 * @returns {number} the median ratio.
 */
export function cpuCrossCheck({ label, target, floor, targetCalls, floorCalls, rounds = 41, goal }) {
  if (!Number.isInteger(rounds) || rounds < 1 || rounds % 2 === 0)
    throw new RangeError(`rounds must be an odd positive integer, got ${rounds}`);
  const perCall = (f, calls) => {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) f(i);
    const used = process.cpuUsage(start);
    return ((used.user + used.system) * 1e3) / calls;
  };
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const f = perCall(floor, floorCalls);
    const t = perCall(target, targetCalls);
    results.push({ ratio: t / f, floor: f, target: t });
  }
  results.sort((a, b) => a.ratio - b.ratio);
  const mid = results[(rounds - 1) / 2];
  const verdict =
    goal === undefined ? '(no goal)' : `(goal <= ${goal}×) ${mid.ratio <= goal ? 'met' : 'NOT MET'}`;
  console.log(
    `cross-check in CPU time (median of ${rounds} interleaved rounds): ${label}: ${mid.ratio.toFixed(2)}× the floor ` +
      `(rounds ${results[0].ratio.toFixed(2)}–${results.at(-1).ratio.toFixed(2)}; ` +
      `${formatTime(mid.target)} against ${formatTime(mid.floor)}) ${verdict}`,
  );
  return mid.ratio;
}
