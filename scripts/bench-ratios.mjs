// Shared by every package's bench/index.mjs: runs mitata benchmarks, then prints each target's time as a
// ratio of the floor measured in the same run, against its goal.
//
// Machines here are shared: a burst of load on the other cores can slow the floor or the target alone
// by 50%. So the suite runs in several rounds (the first printed in full, the others quietly); each
// round gives a ratio of medians (p50 of the target over p50 of the floor), and the figure reported is
// the median of the rounds, with the range of all rounds beside it.
import { run } from 'mitata';

const ROUNDS = 5;

/**
 * @param {() => void} register - registers the benchmarks with mitata's `bench` (called once per round:
 * mitata forgets them after each run).
 * @param {Array<{ target: string; floor: string; goal?: number }>} comparisons - bench names to compare;
 * without a goal the ratio is only reported.
 * @returns {Promise<boolean>} whether every median ratio met its goal.
 */
export async function runAndReport(register, comparisons) {
  const ratios = comparisons.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    register();
    const { benchmarks } = await run({ format: round === 0 ? 'mitata' : 'quiet', colors: false });
    const stats = new Map();
    for (const trial of benchmarks) for (const r of trial.runs) if (r.stats) stats.set(r.name, r.stats);
    comparisons.forEach(({ target, floor }, i) => {
      const t = stats.get(target);
      const f = stats.get(floor);
      if (t === undefined || f === undefined)
        throw new Error(`no measurement for ${t === undefined ? target : floor}`);
      ratios[i].push(t.p50 / f.p50);
    });
  }
  console.log(
    `\nratios against the floor measured in the same round (median of ${ROUNDS} rounds, lower is better):`,
  );
  let allMet = true;
  comparisons.forEach(({ target, floor, goal }, i) => {
    const sorted = ratios[i].toSorted((a, b) => a - b);
    const median = sorted[(ROUNDS - 1) / 2];
    const met = goal === undefined || median <= goal;
    allMet &&= met;
    const verdict = goal === undefined ? '(no goal)' : `(goal <= ${goal}×) ${met ? 'met' : 'NOT MET'}`;
    const range = `rounds ${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)}`;
    console.log(`  ${target}: ${median.toFixed(2)}× ${floor} (${range}) ${verdict}`);
  });
  return allMet;
}
