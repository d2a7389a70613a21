// Measures heap allocation per call in steady state, for the "allocates nothing" tests of the packages
// (test code only: no package's src imports it). V8 allocates every object, closure, argument list and
// boxed double (a HeapNumber) on the heap, so one allocation per call shows as at least 12 bytes per call
// of heap growth.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/**
 * Smallest average heap growth per call of `fn(a, b, c, d)` over up to `windows` windows of `calls`
 * calls each, each window starting right after a full GC and counted only if no GC ran inside it
 * (checked with v8.GCProfiler), so that a collection cannot hide allocations. The minimum over windows
 * skips the JIT warm-up, whose compilations allocate while a function tiers up. The call has a fixed
 * arity and no spread: `fn(...args)` may copy the arguments into a fresh array on every call, which
 * would be measured as the function's own allocation.
 */
export function bytesPerCall(
  fn: (a: never, b: never, c: never, d: never) => unknown,
  a?: unknown,
  b?: unknown,
  c?: unknown,
  d?: unknown,
  calls = 2000,
  windows = 40,
): number {
  const f = fn as (a: unknown, b: unknown, c: unknown, d: unknown) => unknown;
  let best = Number.POSITIVE_INFINITY;
  for (let w = 0; w < windows && best >= 1; w++) {
    gc();
    const profiler = new v8.GCProfiler();
    profiler.start();
    const before = v8.getHeapStatistics().used_heap_size;
    for (let k = 0; k < calls; k++) f(a, b, c, d);
    const after = v8.getHeapStatistics().used_heap_size;
    const collections = profiler.stop()?.statistics.length ?? 0;
    if (collections === 0) best = Math.min(best, (after - before) / calls);
  }
  return best;
}
