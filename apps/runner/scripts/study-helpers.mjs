// What the study scripts (collapse-study.mjs, actors-study.mjs) share: their command-line reading, the
// built CLI's path, and the mean ± 95% Student-t interval over seeds their tables print.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built `ftw` (`pnpm build` first). */
export const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');

/** The value after `--name` on the command line, or `fallback`. */
export function arg(name, fallback) {
  const argv = process.argv.slice(2);
  const i = argv.indexOf(name);
  return i < 0 ? fallback : argv[i + 1];
}

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The mean of the values. */
export const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Mean ± half-width of the 95% t interval of the values (one per seed), as text: the mean alone for one
 * value, '—' for none.
 */
export function showInterval(values, digits = 3) {
  const n = values.length;
  if (n === 0) return '—';
  const m = mean(values);
  if (n < 2) return m.toFixed(digits);
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / (n - 1));
  return `${m.toFixed(digits)} ± ${((T975[n - 2] ?? 1.96) * (sd / Math.sqrt(n))).toFixed(digits)}`;
}
