// Why collectWindow keeps its own binary heap: the window's pattern (fill N, then for each newer run
// replace the oldest kept one) timed on the hand-written heap against the two maintained npm heaps,
// tinyqueue 3.0.0 (pop + push: it has no replace) and heap-js 2.7.2 (`replace`), on 10^6 runs whose keys
// rise with jitter (a log's sequence numbers, some out of order), N = 10^4. The siftUp / siftDown below
// are src/collect-window.ts's, on the same Entry objects and comparison (key, then line).
//
// Run with `node bench/heap-choice.mjs` (no build needed). Prints each heap's median of 5 rounds and its
// ratio to the hand-written one, measured in the same run.

import { Heap } from 'heap-js';
import TinyQueue from 'tinyqueue';

const M = 1_000_000,
  N = 10_000;
let seed = 11;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
// Keys mostly increasing with jitter (a log's sequence numbers / timestamps, some out of order).
const keys = Float64Array.from({ length: M }, (_, i) => i + Math.floor(rnd() * 2000));
const entries = Array.from({ length: M }, (_, i) => ({ line: i + 1, text: undefined, item: undefined }));
function newer(a, ka, b, kb) {
  return ka > kb || (ka === kb && a.line > b.line);
}
function swap(h, k, a, b) {
  const t = h[a];
  h[a] = h[b];
  h[b] = t;
  const x = k[a];
  k[a] = k[b];
  k[b] = x;
}
function siftUp(h, k, i) {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!newer(h[p], k[p], h[i], k[i])) break;
    swap(h, k, i, p);
    i = p;
  }
}
function siftDown(h, k, i) {
  const n = h.length;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) return;
    let o = l;
    const r = l + 1;
    if (r < n && newer(h[l], k[l], h[r], k[r])) o = r;
    if (!newer(h[i], k[i], h[o], k[o])) return;
    swap(h, k, i, o);
    i = o;
  }
}
function own() {
  const h = [],
    k = [];
  for (let i = 0; i < M; i++) {
    const key = keys[i],
      e = entries[i];
    if (h.length < N) {
      h.push(e);
      k.push(key);
      siftUp(h, k, h.length - 1);
    } else if (key > k[0] || (key === k[0] && e.line > h[0].line)) {
      h[0] = e;
      k[0] = key;
      siftDown(h, k, 0);
    }
  }
  return h.length;
}
const cmp = (a, b) => a.key - b.key || a.e.line - b.e.line;
function tiny() {
  const q = new TinyQueue([], cmp);
  for (let i = 0; i < M; i++) {
    const it = { key: keys[i], e: entries[i] };
    if (q.length < N) q.push(it);
    else {
      const top = q.peek();
      if (cmp(it, top) > 0) {
        q.pop();
        q.push(it);
      }
    }
  }
  return q.length;
}
function heapjs() {
  const q = new Heap(cmp);
  for (let i = 0; i < M; i++) {
    const it = { key: keys[i], e: entries[i] };
    if (q.length < N) q.push(it);
    else {
      const top = q.peek();
      if (cmp(it, top) > 0) q.replace(it);
    }
  }
  return q.length;
}
for (const [, f] of [
  [0, own],
  [0, tiny],
  [0, heapjs],
])
  f(); // warm-up
const res = {};
for (let r = 0; r < 5; r++)
  for (const [name, f] of [
    ['own', own],
    ['tinyqueue', tiny],
    ['heap-js', heapjs],
  ]) {
    const t = performance.now();
    f();
    (res[name] ??= []).push(performance.now() - t);
  }
for (const [n, v] of Object.entries(res)) {
  v.sort((a, b) => a - b);
  console.log(
    n,
    'median ms per 1e6 runs (N=1e4):',
    v[2].toFixed(1),
    'ns/run',
    ((v[2] * 1e6) / M).toFixed(0),
    'ratio',
    (v[2] / res.own[2]).toFixed(2),
  );
}
