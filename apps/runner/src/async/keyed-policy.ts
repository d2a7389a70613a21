/** Bytes before θ: the number of named rows and the number of parameters, u32 each. */
const HEADER = 8;

/**
 * A tabular policy over Sokoban positions as the learner of a Redis run publishes it: θ (one row of logits
 * per position, in the learner's numbering) followed by the name of every position the learner has
 * numbered (`<training level>|<key>`, see `SokobanEpisodeEnv.positionName`), so that an actor process, which
 * numbers positions itself, finds the learner's row of the position it stands in.
 *
 * Layout, little-endian: u32 N (names), u32 P (parameters), P f64 (θ), then N entries of a u16 length L
 * and L u16 code units. Names are only ever appended (a learner never renumbers), so a reader decodes each
 * name once, whatever the number of versions it loads.
 *
 * @param parameters - θ, rows of the learner's ids (it may hold fewer rows than there are names: a row not
 *   made yet is all 0)
 * @param names - the number of names, and the name of each learner id
 * @returns the bytes to publish
 * @throws RangeError when `names.count` is not an integer ≥ 0 or a name is longer than 65,535 code units
 * @example
 * ```ts
 * const bytes = encodeKeyedPolicy(Float64Array.of(0.5, -0.5), { count: 1, nameOf: () => '0|\t\n' });
 * const reader = new KeyedPolicyReader();
 * reader.load(bytes); // Float64Array [0.5, -0.5]
 * reader.rowOf('0|\t\n'); // 0
 * ```
 */
export function encodeKeyedPolicy(
  parameters: Float64Array,
  names: { readonly count: number; nameOf(id: number): string },
): Uint8Array {
  const { count } = names;
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`names.count must be an integer >= 0, got ${String(count)}`);
  }
  const all = Array.from({ length: count }, (_, id) => names.nameOf(id));
  let units = 0;
  for (const [id, name] of all.entries()) {
    if (name.length > 0xffff) {
      throw new RangeError(`name ${id} must have at most 65535 code units, got ${name.length}`);
    }
    units += 1 + name.length;
  }
  const bytes = new Uint8Array(HEADER + 8 * parameters.length + 2 * units);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, count, true);
  view.setUint32(4, parameters.length, true);
  let at = HEADER;
  for (const value of parameters) {
    view.setFloat64(at, value, true);
    at += 8;
  }
  for (const name of all) {
    view.setUint16(at, name.length, true);
    at += 2;
    for (let i = 0; i < name.length; i++, at += 2) view.setUint16(at, name.charCodeAt(i), true);
  }
  return bytes;
}

/**
 * Reads the policies {@link encodeKeyedPolicy} wrote, version after version, keeping the map from names to
 * rows: each load decodes θ and only the names it has not seen yet.
 */
export class KeyedPolicyReader {
  readonly #rows = new Map<string, number>();
  /** Bytes of the name entries decoded so far (the same prefix in every later version). */
  #namesLength = 0;

  /**
   * @param bytes - a published policy
   * @returns θ, a new array
   * @throws RangeError when the bytes are not a keyed policy, or hold fewer names than an earlier one
   *   (a learner never forgets a position)
   */
  load(bytes: Uint8Array): Float64Array {
    if (bytes.length < HEADER) {
      throw new RangeError(`a keyed policy has at least ${HEADER} bytes, got ${bytes.length}`);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = view.getUint32(0, true);
    const size = view.getUint32(4, true);
    const start = HEADER + 8 * size;
    if (start > bytes.length) {
      throw new RangeError(
        `a keyed policy of ${size} parameters has at least ${start} bytes, got ${bytes.length}`,
      );
    }
    if (count < this.#rows.size) {
      throw new RangeError(
        `a keyed policy names ${count} positions, fewer than the ${this.#rows.size} before`,
      );
    }
    const parameters = new Float64Array(size);
    for (let i = 0; i < size; i++) parameters[i] = view.getFloat64(HEADER + 8 * i, true);
    // Decoded aside and added at the end, so that bytes refused half-way change nothing.
    const added = new Set<string>();
    let at = start + this.#namesLength;
    for (let id = this.#rows.size; id < count; id++) {
      if (at + 2 > bytes.length) throw new RangeError(`a keyed policy ends inside name ${id}`);
      const length = view.getUint16(at, true);
      if (at + 2 + 2 * length > bytes.length) throw new RangeError(`a keyed policy ends inside name ${id}`);
      let name = '';
      for (let i = 0; i < length; i++) name += String.fromCharCode(view.getUint16(at + 2 + 2 * i, true));
      if (this.#rows.has(name) || added.has(name)) {
        throw new RangeError(`a keyed policy names ${JSON.stringify(name)} twice`);
      }
      added.add(name);
      at += 2 + 2 * length;
    }
    for (const name of added) this.#rows.set(name, this.#rows.size);
    this.#namesLength = at - start;
    return parameters;
  }

  /**
   * @param name - a position's name
   * @returns the learner's row of that position, or undefined when the learner has not met it (its logits
   *   are then 0: the uniform policy)
   */
  rowOf(name: string): number | undefined {
    return this.#rows.get(name);
  }
}
