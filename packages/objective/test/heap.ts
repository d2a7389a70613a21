// Measures heap allocation per call in steady state, for the "allocates nothing with out buffers"
// tests. V8 allocates every object, closure and boxed double (a HeapNumber, 12 bytes or more) on the
// heap, so one allocation per call shows as >= 12 bytes per call of heap growth.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/**
 * Smallest average heap growth per call of `fn(...args)` over up to `windows` windows of `calls` calls
 * each, each window starting right after a full GC and counted only if no GC ran inside it (checked
 * with v8.GCProfiler), so that a collection cannot hide allocations. The minimum over windows skips
 * the JIT warm-up, whose compilations allocate while a function tiers up. The function is called
 * directly, not through a test closure, so that only its own allocations are measured.
 */
export function bytesPerCall<A extends unknown[]>(
  fn: (...args: A) => unknown,
  args: A,
  calls = 2000,
  windows = 30,
): number {
  let best = Number.POSITIVE_INFINITY;
  for (let w = 0; w < windows && best >= 1; w++) {
    gc();
    const profiler = new v8.GCProfiler();
    profiler.start();
    const before = v8.getHeapStatistics().used_heap_size;
    for (let k = 0; k < calls; k++) fn(...args);
    const after = v8.getHeapStatistics().used_heap_size;
    const collections = profiler.stop()?.statistics.length ?? 0;
    if (collections === 0) best = Math.min(best, (after - before) / calls);
    if (process.env['HEAP_DEBUG']) console.log(w, (after - before) / calls, collections);
  }
  return best;
}
