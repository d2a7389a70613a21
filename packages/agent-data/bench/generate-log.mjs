// Writes a log of `runs` trajectories (the example agent's, `ftw` shape) to `path`, in parts so that the
// generator never holds the whole file in memory.

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { scriptedLog } from '../examples/scripted-agent.mjs';

const PART = 2000;

/**
 * @param {string} path
 * @param {number} runs
 * @returns {Promise<number>} bytes written
 */
export async function generateLog(path, runs) {
  const out = createWriteStream(path);
  let bytes = 0;
  for (let first = 0; first < runs; first += PART) {
    const text = scriptedLog({
      shape: 'ftw',
      runs: Math.min(PART, runs - first),
      successRate: 0.3,
      seed: first + 1,
      first,
      versionEvery: 5000,
    });
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}
