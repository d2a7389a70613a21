/** Bytes before θ: the number of named rows and the number of parameters, u32 each. */
const HEADER = 8;
/** Bytes before a delta's row ids: names, parameters, row width and rows, u32 each. */
const DELTA_HEADER = 16;

/** What names a keyed policy: how many, and the name of each learner id. */
export interface RowNames {
  readonly count: number;
  nameOf(id: number): string;
}

/**
 * A keyed tabular policy as a learner publishes it: θ (one row of logits per state, in the learner's
 * numbering) followed by the name of every state the learner has numbered (any string that means the same
 * state in every process, e.g. Sokoban's `<level>|<board key>`), so that an actor process, which numbers
 * states its own way, finds the learner's row of the state it is in. For tables over states that have no
 * common numbering across processes; a policy over features needs none of this.
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
export function encodeKeyedPolicy(parameters: Float64Array, names: RowNames): Uint8Array {
  return new KeyedPolicyWriter().encode(parameters, names);
}

/**
 * Writes the policies of one learner, version after version: snapshots in {@link encodeKeyedPolicy}'s
 * layout (`encode`), or deltas from the version written before (`delta`: the rows moved and the names
 * added). The name entries are encoded once, when a name first appears, and copied as bytes into every
 * later snapshot, so a snapshot costs its θ and a copy of the names' bytes, not a name lookup and a loop
 * over code units per position; a delta costs the rows it lists and the new names.
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
  encode(parameters: Float64Array, names: RowNames): Uint8Array {
    this.#appendNames(names);
    const length = this.#length;
    const start = HEADER + 8 * parameters.length;
    const bytes = new Uint8Array(start + length);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, this.#count, true);
    view.setUint32(4, parameters.length, true);
    for (let i = 0; i < parameters.length; i++) view.setFloat64(HEADER + 8 * i, parameters[i]!, true);
    bytes.set(this.#entries.subarray(0, length), start);
    return bytes;
  }

  /**
   * A delta from the version this writer wrote last (snapshot or delta) to this one: the rows that moved
   * since, and the names added since, so that a version costs the rows an update moved, not θ. A reader
   * holding the version before applies it with {@link KeyedPolicyReader.apply}.
   *
   * Layout, little-endian: u32 N (names), u32 P (parameters), u32 W (row width: actions), u32 R (rows),
   * R u32 row ids, R·W f64 (those rows of θ), then the name entries of ids from the last call's N to N
   * (u16 length and u16 code units each). Rows of θ beyond the reader's, not listed, are 0.
   *
   * @param parameters - θ, rows of W values in the learner's ids
   * @param names - the number of names, and the name of each learner id (as for `encode`)
   * @param rows - the ids of the rows that moved since the last version written (each once)
   * @param width - W, values per row
   * @returns the bytes to publish
   * @throws RangeError when `width` is not an integer ≥ 1 dividing θ's length, a row is not an integer id
   *   of θ, or for `names` as `encode` does; nothing is kept from the call then
   * @example
   * ```ts
   * const writer = new KeyedPolicyWriter();
   * writer.encode(Float64Array.of(0, 0, 0, 0), { count: 2, nameOf: (id) => ['0|a', '0|b'][id]! });
   * writer.delta(Float64Array.of(0, 0, 0.5, -0.5), { count: 2, nameOf: () => '' }, [1], 2); // row 1 alone
   * ```
   */
  delta(parameters: Float64Array, names: RowNames, rows: ArrayLike<number>, width: number): Uint8Array {
    if (!Number.isInteger(width) || width < 1 || parameters.length % width !== 0) {
      throw new RangeError(
        `width must be an integer >= 1 dividing the ${parameters.length} parameters, got ${String(width)}`,
      );
    }
    const R = rows.length;
    const total = parameters.length / width;
    for (let r = 0; r < R; r++) {
      const row = rows[r]!;
      if (!Number.isInteger(row) || row < 0 || row >= total) {
        throw new RangeError(`rows[${r}] must be a row id in [0, ${total}), got ${String(row)}`);
      }
    }
    const from = this.#length;
    this.#appendNames(names);
    const values = DELTA_HEADER + 4 * R;
    const start = values + 8 * R * width;
    const bytes = new Uint8Array(start + this.#length - from);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, this.#count, true);
    view.setUint32(4, parameters.length, true);
    view.setUint32(8, width, true);
    view.setUint32(12, R, true);
    for (let r = 0, at = values; r < R; r++) {
      const row = rows[r]!;
      view.setUint32(DELTA_HEADER + 4 * r, row, true);
      for (let i = row * width; i < (row + 1) * width; i++, at += 8)
        view.setFloat64(at, parameters[i]!, true);
    }
    bytes.set(this.#entries.subarray(from, this.#length), start);
    return bytes;
  }

  /** Encodes the names from the last call's count to `names.count` once, all or none. */
  #appendNames(names: RowNames): void {
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
  }
}

/**
 * Reads the policies a {@link KeyedPolicyWriter} wrote, version after version, keeping the map from names to
 * rows: a snapshot (`load`) decodes θ and only the names not seen yet; a delta (`apply`) writes the rows it
 * lists into θ of the version before and numbers the names it adds.
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
    const { added, end } = this.#readNames(view, start + this.#namesLength, count);
    this.#commitNames(added, end - start);
    return parameters;
  }

  /**
   * Applies a {@link KeyedPolicyWriter.delta} to θ of the version before it: writes the rows it lists,
   * grows θ to its size (rows not listed are 0) and adds the names it brings.
   *
   * @param parameters - θ of the version the delta follows (as `load` or `apply` returned it)
   * @param bytes - the delta
   * @returns θ of the delta's version: `parameters` itself, changed in place, when its size did not change;
   *   otherwise a new array
   * @throws RangeError when the bytes are not a keyed policy delta, would shrink θ or the names, name a
   *   row outside θ or a position twice; nothing is changed then
   * @example
   * ```ts
   * const theta = reader.load(snapshot);
   * const next = reader.apply(theta, delta); // the rows the update moved, and the new names
   * ```
   */
  apply(parameters: Float64Array, bytes: Uint8Array): Float64Array {
    if (bytes.length < DELTA_HEADER) {
      throw new RangeError(`a keyed policy delta has at least ${DELTA_HEADER} bytes, got ${bytes.length}`);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = view.getUint32(0, true);
    const size = view.getUint32(4, true);
    const width = view.getUint32(8, true);
    const R = view.getUint32(12, true);
    if (width < 1 || size % width !== 0) {
      throw new RangeError(
        `a keyed policy delta has rows of ${width} values, not dividing its ${size} parameters`,
      );
    }
    if (size < parameters.length) {
      throw new RangeError(
        `a keyed policy delta has ${size} parameters, fewer than the ${parameters.length} before`,
      );
    }
    if (count < this.#rows.size) {
      throw new RangeError(
        `a keyed policy delta names ${count} positions, fewer than the ${this.#rows.size} before`,
      );
    }
    const values = DELTA_HEADER + 4 * R;
    const start = values + 8 * R * width;
    if (start > bytes.length) {
      throw new RangeError(
        `a keyed policy delta of ${R} rows of ${width} has at least ${start} bytes, got ${bytes.length}`,
      );
    }
    for (let r = 0; r < R; r++) {
      const row = view.getUint32(DELTA_HEADER + 4 * r, true);
      if (row >= size / width) {
        throw new RangeError(`a keyed policy delta writes row ${row}, outside its ${size / width} rows`);
      }
    }
    const { added, end } = this.#readNames(view, start, count);
    if (end !== bytes.length) {
      throw new RangeError(`a keyed policy delta has ${bytes.length - end} bytes after its last name`);
    }
    let theta = parameters;
    if (size !== parameters.length) {
      theta = new Float64Array(size);
      theta.set(parameters);
    }
    for (let r = 0, at = values; r < R; r++) {
      const from = view.getUint32(DELTA_HEADER + 4 * r, true) * width;
      for (let i = from; i < from + width; i++, at += 8) theta[i] = view.getFloat64(at, true);
    }
    this.#commitNames(added, this.#namesLength + end - start);
    return theta;
  }

  /**
   * Decodes the entries of the names this reader has not met, ids from its count to `count`, from byte
   * `at`; decoded aside, so that bytes refused half-way change nothing.
   */
  #readNames(view: DataView, at: number, count: number): { added: Set<string>; end: number } {
    const added = new Set<string>();
    for (let id = this.#rows.size; id < count; id++) {
      if (at + 2 > view.byteLength) throw new RangeError(`a keyed policy ends inside name ${id}`);
      const length = view.getUint16(at, true);
      if (at + 2 + 2 * length > view.byteLength)
        throw new RangeError(`a keyed policy ends inside name ${id}`);
      let name = '';
      for (let i = 0; i < length; i++) name += String.fromCharCode(view.getUint16(at + 2 + 2 * i, true));
      if (this.#rows.has(name) || added.has(name)) {
        throw new RangeError(`a keyed policy names ${JSON.stringify(name)} twice`);
      }
      added.add(name);
      at += 2 + 2 * length;
    }
    return { added, end: at };
  }

  /** Numbers the names `#readNames` decoded; `namesLength` is the bytes of all names decoded then. */
  #commitNames(added: Set<string>, namesLength: number): void {
    for (const name of added) this.#rows.set(name, this.#rows.size);
    this.#namesLength = namesLength;
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
