/** A Lehmer generator, uniform on [0, 1): the tests' seeded randomness. */
export function lehmer(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 48271) % 2147483647) - 1) / 2147483646;
}
