// Child process of save-kill.test.ts: builds a large pool and saves it over an existing snapshot, to be
// killed with SIGKILL by the parent partway. Run as
//   node --import ./test/register-ts.mjs test/save-child.ts <path> <block|free> <trajectories> <steps>
// "block": once the first bytes of the temporary file are written, report `partial <bytes>` on stdout
// and block forever, so the parent's SIGKILL is certain to land mid-save. "free": save normally and
// let the parent kill at whatever moment it chooses.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const [path = '', mode = 'free', trajectoriesArg = '1', stepsArg = '1'] = process.argv.slice(2);
const writeSync = fs.writeSync;
const say = (line: string): void => void writeSync(1, `${line}\n`);

if (mode === 'block') {
  fs.writeSync = ((fd: number, buffer: Uint8Array, offset: number, length: number) => {
    if (fd > 2) {
      const written = writeSync(fd, buffer, offset, Math.max(1, Math.floor(length / 2)));
      say(`partial ${written}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    }
    return writeSync(fd, buffer, offset, length);
  }) as typeof fs.writeSync;
  // The package imports writeSync by name; refresh the ESM bindings of node:fs to the patched function.
  syncBuiltinESMExports();
}

const { ReplayPool } = await import('../src/index.js');
const count = Number(trajectoriesArg);
const steps = Number(stepsArg);
const pool = new ReplayPool({ capacity: count });
const actions = new Int32Array(steps);
const logProbs = new Float64Array(steps).fill(-0.25);
for (let k = 0; k < count; k++) {
  pool.push({ actions, logProbs, versions: k, return: k, metadata: { writer: 'child', k } });
}
say(`saving ${pool.toBytes().length}`);
pool.save(path);
say('saved');
