/** Bytes before θ: the number of named rows and the number of parameters, u32 each. */
const HEADER = 8;

/** What names a keyed policy: how many, and the name of each learner id. */
export interface PositionNames {
  readonly count: number;
  nameOf(id: number): string;
}

/**
 * A tabular policy over Sokoban positions as the learner of a Redis run publishes it: θ (one row of logits
 * per position, in the learner's numbering) followed by the name of every position the learner has
 * numbered (`<training level>|<key>`, see `SokobanEpisodeEnv.positionName`), so that an actor process, which
 * numbers positions itself, finds the learner's row of the position it stands in.
 *
 * Layout, little-endian: u32 N (names), u32 P (parameters), P f64 (θ), then N entries of a u16 length L
 * and L u16 code units. Names are only ever appended (a learner never renumbers), so a reader decodes each
 * name once, whatever the number of versions it loads, and a {@link KeyedPolicyWriter} encodes each once.
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
export function encodeKeyedPolicy(parameters: Float64Array, names: PositionNames): Uint8Array {
  return new KeyedPolicyWriter().encode(parameters, names);
}

/**
 * Writes the policies of one learner, version after version, in {@link encodeKeyedPolicy}'s layout: the
 * name entries are encoded once, when a name first appears, and copied as bytes into every later version,
 * so a version costs its θ and a copy of the names' bytes, not a name lookup and a loop over code units
 * per position.
 *
 * The learner's names must be append-only: id i keeps its name, and a later version has at least as many.
 *
 * @example
 * ```ts
 * const writer = new KeyedPolicyWriter();
 * writer.encode(Float64Array.of(0.5, -0.5), { count: 1, nameOf: () => '0|a' }); // encodes '0|a'
 * writer.encode(Float64Array.of(1, -1, 0, 0), { count: 2, nameOf: (id) => ['0|a', '0|b'][id]! }); // only '0|b'
 * ```
 */
export class KeyedPolicyWriter {
  /** The entries of the names encoded so far (u16 length, then u16 code units), `#length` bytes. */
  #entries = new Uint8Array(256);
  #length = 0;
  #count = 0;

  /**
   * @param parameters - θ, rows of the learner's ids
   * @param names - the number of names, and the name of each learner id (those below the count of the
   *   last call are not read again)
   * @returns the bytes to publish
   * @throws RangeError when `names.count` is not an integer, or is below the count of the last call (names
   *   are only appended), or a new name is longer than 65,535 code units; nothing is kept from the call then
   */
  encode(parameters: Float64Array, names: PositionNames): Uint8Array {
    const { count } = names;
    if (!Number.isInteger(count) || count < 0) {
      throw new RangeError(`names.count must be an integer >= 0, got ${String(count)}`);
    }
    if (count < this.#count) {
      throw new RangeError(
        `names.count must not fall (names are only appended): ${this.#count} before, got ${count}`,
      );
    }
    const added: string[] = [];
    let length = this.#length;
    for (let id = this.#count; id < count; id++) {
      const name = names.nameOf(id);
      if (name.length > 0xffff) {
        throw new RangeError(`name ${id} must have at most 65535 code units, got ${name.length}`);
      }
      added.push(name);
      length += 2 + 2 * name.length;
    }
    if (length > this.#entries.length) {
      const grown = new Uint8Array(Math.max(length, 2 * this.#entries.length));
      grown.set(this.#entries.subarray(0, this.#length));
      this.#entries = grown;
    }
    const entries = new DataView(this.#entries.buffer);
    let at = this.#length;
    for (const name of added) {
      entries.setUint16(at, name.length, true);
      at += 2;
      for (let i = 0; i < name.length; i++, at += 2) entries.setUint16(at, name.charCodeAt(i), true);
    }
    this.#length = length;
    this.#count = count;

    const start = HEADER + 8 * parameters.length;
    const bytes = new Uint8Array(start + length);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, count, true);
    view.setUint32(4, parameters.length, true);
    for (let i = 0; i < parameters.length; i++) view.setFloat64(HEADER + 8 * i, parameters[i]!, true);
    bytes.set(this.#entries.subarray(0, length), start);
    return bytes;
  }
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
