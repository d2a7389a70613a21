// Shared by every package's bench/index.mjs: runs the mitata benchmarks registered so far, then prints
// each target's time as a ratio of the floor measured in the same run, against its goal.
import { run } from 'mitata';

/**
 * @param {Array<{ target: string; floor: string; goal: number }>} comparisons - bench names to compare.
 * @returns {Promise<boolean>} whether every ratio met its goal.
 */
export async function runAndReport(comparisons) {
  const { benchmarks } = await run({ format: 'mitata', colors: false });
  const average = new Map();
  for (const trial of benchmarks) for (const r of trial.runs) if (r.stats) average.set(r.name, r.stats.avg);
  console.log('\nratios against the floor measured in this run (lower is better):');
  let allMet = true;
  for (const { target, floor, goal } of comparisons) {
    const t = average.get(target);
    const f = average.get(floor);
    if (t === undefined || f === undefined)
      throw new Error(`no measurement for ${t === undefined ? target : floor}`);
    const ratio = t / f;
    const met = ratio <= goal;
    allMet &&= met;
    console.log(`  ${target}: ${ratio.toFixed(2)}× ${floor} (goal <= ${goal}×) ${met ? 'met' : 'NOT MET'}`);
  }
  return allMet;
}
