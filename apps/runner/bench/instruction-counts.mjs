// What a reproduction seed and its floor cost in instructions and in cache misses, counted by valgrind
// instead of timed: the same figures on a quiet machine and a loaded one, where the timed ratio of
// bench/index.mjs moves by ±30% between rounds. A diagnostic for the reproduce goal (no goal of its own;
// not part of `pnpm bench`):
//
//   node bench/instruction-counts.mjs              # per seed and per floor: instructions, L1i and L1d misses
//   node bench/instruction-counts.mjs --functions  # and, for the seed, the same per JIT-compiled function
//   node bench/instruction-counts.mjs --l1 65536   # with simulated L1 caches of 64 KiB instead
//
// Method. The seed (trainSeed on the reproduction configuration, seed 0) and the floor (240 rollouts with no
// learning, as bench/index.mjs defines it) run under `valgrind --tool=cachegrind` in `node --single-threaded`
// (no concurrent compiler or GC threads, so runs agree to within about 0.6%), each at two repeat counts; the
// difference over the difference in counts is the cost of one more call once everything is compiled, with
// start-up and compilation cancelled out. The simulated L1 caches take this machine's L1i size from sysfs
// (32 KiB when it cannot be read; --l1 to choose), 8-way, 64-byte lines. With --functions, one callgrind run of the seed
// attributes the instructions and misses of each address to the JavaScript function V8 compiled there
// (`--perf-basic-prof` writes the map; where code space was reused, the later function wins), divided by the
// iterations run: a per-iteration figure that includes compilation's share, small at these counts. Listed
// by instructions: on this machine the seed's time follows them, not the simulated misses (runner README).
//
// Needs valgrind (Debian's `valgrind` package). Builds src/training.ts from the current sources first
// (scripts/build-from-source.mjs); removes the build, the scripts it writes, V8's map file and its log.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildFromSource } from '../scripts/build-from-source.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const SEEDS = [150, 450];
const FLOORS = [1500, 4500];
const ITERATIONS = 240;
/** What callgrind counts outside V8's code map: Node's own code (start-up, the compiler, the GC). */
const NATIVE = '(C++: start-up, compiler, GC; not per iteration)';

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('valgrind is not installed (apt-get install valgrind); nothing was measured');
  process.exit(2);
}

/** This machine's L1 instruction cache size in bytes, from sysfs; undefined when it cannot be read. */
function l1InstructionBytes() {
  for (let i = 0; i < 8; i++) {
    const dir = `/sys/devices/system/cpu/cpu0/cache/index${i}`;
    try {
      const level = readFileSync(join(dir, 'level'), 'utf8').trim();
      const type = readFileSync(join(dir, 'type'), 'utf8').trim();
      if (level !== '1' || type !== 'Instruction') continue;
      const size = readFileSync(join(dir, 'size'), 'utf8').trim();
      const match = /^(\d+)K$/.exec(size);
      if (match !== null) return Number(match[1]) * 1024;
    } catch {
      // no such index
    }
  }
  return undefined;
}

/**
 * The simulated L1 size and where it comes from: `--l1 <bytes>` (a power of two of at least 4 KiB), this
 * machine's L1i, or 32 KiB when sysfs does not say.
 */
function l1Option() {
  const at = process.argv.indexOf('--l1');
  if (at < 0) {
    const bytes = l1InstructionBytes();
    return bytes === undefined
      ? { bytes: 32 * 1024, source: "32 KiB: this machine's L1i size is unknown" }
      : { bytes, source: "this machine's L1i" };
  }
  const value = process.argv[at + 1];
  const bytes = Number(value);
  if (!(Number.isInteger(bytes) && bytes >= 4096 && (bytes & (bytes - 1)) === 0)) {
    console.error(`--l1 must be a power of two of at least 4096 bytes, got ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return { bytes, source: '--l1' };
}

const { bytes: l1, source: l1Source } = l1Option();
const cacheFlags = ['--cache-sim=yes', `--I1=${l1},8,64`, `--D1=${l1},8,64`, '--smc-check=all-non-file'];

const built = await buildFromSource({ entry: 'src/training.ts', name: 'training' });
const scratch = mkdtempSync(join(tmpdir(), 'ftw-instructions-'));
const maps = [];
try {
  const seedScript = join(scratch, 'seed.mjs');
  const floorScript = join(scratch, 'floor.mjs');
  const prelude = `const m = await import(${JSON.stringify(built.file)});\nconst n = Number(process.argv[2]);\nlet sum = 0;\n`;
  writeFileSync(
    seedScript,
    `${prelude}for (let i = 0; i < n; i++) sum += m.trainSeed(m.REPRODUCE_CONFIG, 0).finalOptimalProbability;\nconsole.log(sum);\n`,
  );
  writeFileSync(
    floorScript,
    `${prelude}const { reproduceFloor } = await import(${JSON.stringify(pathToFileURL(join(BENCH, 'reproduce-floor.mjs')).href)});
const rollouts = reproduceFloor(m);
for (let k = 0; k < n; k++) sum += rollouts();
console.log(sum);
`,
  );

  /** Instructions, L1i misses and L1d misses (reads and writes) of one cachegrind run of `script n`. */
  const counts = (script, n) => {
    const run = spawnSync(
      'valgrind',
      [
        '--tool=cachegrind',
        ...cacheFlags,
        '--cachegrind-out-file=/dev/null',
        process.execPath,
        '--single-threaded',
        script,
        String(n),
      ],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    if (run.status !== 0) throw new Error(`valgrind ${script} ${n} failed:\n${run.stderr.slice(-2000)}`);
    const read = (label) => {
      const match = new RegExp(`${label}:\\s+([\\d,]+)`).exec(run.stderr);
      if (match === null) throw new Error(`no "${label}" in valgrind's summary:\n${run.stderr.slice(-2000)}`);
      return Number(match[1].replaceAll(',', ''));
    };
    return { instructions: read('I\\s+refs'), l1i: read('I1\\s+misses'), l1d: read('D1\\s+misses') };
  };
  /** The cost of one more call: the difference between two runs over the difference in calls. */
  const marginal = (script, [low, high]) => {
    const a = counts(script, low);
    const b = counts(script, high);
    const per = (key) => (b[key] - a[key]) / (high - low);
    return { instructions: per('instructions'), l1i: per('l1i'), l1d: per('l1d') };
  };

  const seed = marginal(seedScript, SEEDS);
  const floor = marginal(floorScript, FLOORS);
  const f = (v) => Math.round(v).toLocaleString('en-US');
  console.log(`simulated L1 caches: ${l1 / 1024} KiB each, 8-way, 64-byte lines (${l1Source})`);
  console.log(
    `per call, once compiled (difference of ${SEEDS.join(' and ')} seeds; ${FLOORS.join(' and ')} floors):`,
  );
  for (const [label, c] of [
    ['ftw reproduce, one seed (240 iterations)', seed],
    ['240 rollouts, no learning (floor)', floor],
  ]) {
    console.log(
      `  ${label}: ${f(c.instructions)} instructions, ${f(c.l1i)} L1i misses, ${f(c.l1d)} L1d misses`,
    );
  }
  console.log(
    `  seed / floor: ${(seed.instructions / floor.instructions).toFixed(2)}× in instructions, ${(seed.l1i / floor.l1i).toFixed(1)}× in L1i misses; per iteration ${f(seed.instructions / ITERATIONS)} instructions and ${f(seed.l1i / ITERATIONS)} L1i misses, per rollout of the floor ${f(floor.instructions / ITERATIONS)} and ${f(floor.l1i / ITERATIONS)}`,
  );

  if (process.argv.includes('--functions')) {
    const out = join(scratch, 'callgrind.out');
    const n = SEEDS[1];
    const run = spawnSync(
      'valgrind',
      [
        '--tool=callgrind',
        '--dump-instr=yes',
        ...cacheFlags,
        `--callgrind-out-file=${out}`,
        process.execPath,
        '--single-threaded',
        '--perf-basic-prof',
        '--no-compact-code-space',
        seedScript,
        String(n),
      ],
      // In the scratch folder, which is removed: with --perf-basic-prof, V8 also writes an
      // isolate-*-v8.log into the working directory.
      { encoding: 'utf8', maxBuffer: 1 << 26, cwd: scratch },
    );
    if (run.status !== 0) throw new Error(`callgrind failed:\n${run.stderr.slice(-2000)}`);
    const pid = /==(\d+)==/.exec(run.stderr)?.[1];
    const map = `/tmp/perf-${pid}.map`;
    maps.push(map);
    if (pid === undefined || !existsSync(map)) throw new Error(`no V8 code map for process ${pid}`);
    const rows = byFunction(readFileSync(out, 'utf8'), readFileSync(map, 'utf8'));
    const iterations = n * ITERATIONS;
    console.log(
      `\nthe seed per JIT-compiled function (callgrind, ${n} seeds; per iteration; * optimised, ^ baseline):`,
    );
    console.log('  instructions  L1i misses  function');
    for (const r of rows.slice(0, 25)) {
      const name = r.name.replace(/ file:\/\/\S*\/([^/]+):(\d+):\d+$/, ' ($1:$2)');
      console.log(
        `  ${(r.instructions / iterations).toFixed(0).padStart(12)}  ${(r.l1i / iterations).toFixed(1).padStart(10)}  ${name}`,
      );
    }
    const jit = rows.filter((r) => r.name !== NATIVE);
    const sum = (key) => jit.reduce((s, r) => s + r[key], 0) / iterations;
    console.log(
      `  ${sum('instructions').toFixed(0).padStart(12)}  ${sum('l1i').toFixed(1).padStart(10)}  all compiled JavaScript and builtins`,
    );
  }
} finally {
  built.remove();
  rmSync(scratch, { recursive: true, force: true });
  for (const map of maps) rmSync(map, { force: true });
}

/**
 * Self cost (instructions, L1i read misses) of each function of a `--dump-instr=yes` callgrind profile,
 * JIT code named through V8's perf map (`start size name` per line, in the order the code was made).
 * @param {string} profile - callgrind's output
 * @param {string} perfMap - the contents of /tmp/perf-<pid>.map
 * @returns {{ name: string, instructions: number, l1i: number }[]} most instructions first (on this machine the
 *   seed's time follows its instructions, not its simulated L1i misses: see the runner's README)
 */
function byFunction(profile, perfMap) {
  // Disjoint address ranges, the later entry winning where code space was reused.
  let ranges = [];
  for (const line of perfMap.split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (match === null) continue;
    const start = Number.parseInt(match[1], 16);
    const end = start + Number.parseInt(match[2], 16);
    const kept = [];
    for (const r of ranges) {
      if (r.end <= start || r.start >= end) kept.push(r);
      else {
        if (r.start < start) kept.push({ start: r.start, end: start, name: r.name });
        if (r.end > end) kept.push({ start: end, end: r.end, name: r.name });
      }
    }
    kept.push({ start, end, name: match[3] });
    ranges = kept;
  }
  ranges.sort((a, b) => a.start - b.start);
  const nameAt = (address) => {
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[mid].start <= address) lo = mid + 1;
      else hi = mid - 1;
    }
    const r = ranges[hi];
    return r !== undefined && address < r.end ? r.name : NATIVE;
  };
  let events = [];
  const totals = new Map();
  let address = 0;
  let skipCall = false;
  for (const line of profile.split('\n')) {
    if (line.startsWith('events:')) {
      events = line.slice(7).trim().split(/\s+/);
      continue;
    }
    if (line.startsWith('calls=')) {
      skipCall = true; // the next cost line is the callee's inclusive cost, not this address's own
      continue;
    }
    const first = line[0];
    if (!(first === '+' || first === '-' || first === '*' || (first >= '0' && first <= '9'))) continue;
    const fields = line.split(' ');
    const position = fields[0];
    if (position === '*') {
      // same address
    } else if (first === '+' || first === '-') {
      const step = position.slice(1);
      const delta = step.startsWith('0x') ? Number.parseInt(step, 16) : Number(step);
      address += first === '+' ? delta : -delta;
    } else {
      address = Number.parseInt(position, 16);
    }
    if (skipCall) {
      skipCall = false;
      continue;
    }
    // fields: address, line, then the events in order (missing trailing ones are 0)
    const ir = Number(fields[2 + events.indexOf('Ir')] ?? 0);
    const i1 = Number(fields[2 + events.indexOf('I1mr')] ?? 0);
    const name = nameAt(address);
    const t = totals.get(name) ?? { name, instructions: 0, l1i: 0 };
    t.instructions += ir;
    t.l1i += i1;
    totals.set(name, t);
  }
  return [...totals.values()].sort((a, b) => b.instructions - a.instructions);
}
