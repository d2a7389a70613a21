import type { ObservationRows, Policy } from '@ftw/trainer';
import * as tf from '@tensorflow/tfjs';
import { type Architecture, architectureDifference, readArchitecture } from './architecture.js';
import { convBackward, convForward, convShapes } from './conv-network.js';
import { initialWeights } from './initial-weights.js';
import { mlpBackward, mlpForward, mlpShapes } from './mlp-network.js';
import { TfjsPolicyError } from './tfjs-policy-error.js';

/** The `format` field of a saved policy. */
export const POLICY_FORMAT = 'ftw-tfjs-policy/1';

/**
 * A saved policy, one JSON line (a run's `policies.ndjson` can hold it): the architecture and θ, the
 * flat weights in the order of {@link NetworkPolicy.parameterShapes}, as JSON numbers (a double
 * round-trips exactly through `JSON.stringify` and `JSON.parse`).
 */
export interface PolicyRecord {
  readonly format: typeof POLICY_FORMAT;
  readonly architecture: Architecture;
  readonly parameters: number[];
}

/** A named block of θ: a weight tensor of the network. */
export interface ParameterShape {
  readonly name: string;
  readonly shape: readonly number[];
}

function size(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/**
 * The machinery shared by the networks of this package: θ as a flat `Float64Array` that the trainer's
 * optimiser updates, mirrored into float32 weight tensors, a batched forward pass, back-propagation of
 * ∂L/∂logits (a vector-Jacobian product taken with `tf.grads`) into a flat gradient, and save/load.
 *
 * Synchronisation: before each pass the weights are compared with a float64 copy of θ as last uploaded,
 * block by block; a block that changed is uploaded again (float64 → float32, one new tensor). The cost is
 * O(P) comparisons per call plus O(P) for each block uploaded, once per optimiser step: small beside the
 * pass itself, O(rows · P).
 *
 * @example
 * ```ts
 * const policy: NetworkPolicy = await loadPolicy(line); // an MlpPolicy or a ConvPolicy
 * const z = policy.logits(observations, rows, new Float64Array(rows * policy.numActions));
 * const grad = new Float64Array(policy.parameters.length);
 * policy.backward(observations, rows, logitGrad, grad); // grad += Σ_r (∂z_r/∂θ)ᵀ g_r
 * ```
 */
export class NetworkPolicy implements Policy {
  /** Number of actions (logits per observation). */
  readonly numActions: number;
  /** Numbers per observation: the network's input size. */
  readonly observationSize: number;
  /** θ, every weight of the network in one flat vector, the one the optimiser updates in place. */
  readonly parameters: Float64Array;
  /** The weight tensors, in the order they sit in θ. */
  readonly parameterShapes: readonly ParameterShape[];
  readonly #offsets: number[];
  readonly #uploaded: Float64Array;
  readonly #weights: tf.Tensor[];
  #input = new Float32Array(0);
  /** The input of `#last`, a buffer of its own (reused). */
  #lastInput = new Float32Array(0);
  #disposed = false;

  readonly #architecture: Architecture;
  readonly #forward: (x: tf.Tensor2D, weights: readonly tf.Tensor[], record?: tf.Tensor[]) => tf.Tensor2D;
  /** The weight gradients of ∂L/∂logits from a recorded forward pass, without running it again. */
  readonly #backward: (
    dz: tf.Tensor2D,
    weights: readonly tf.Tensor[],
    record: readonly tf.Tensor[],
  ) => tf.Tensor[];
  /** Bumped whenever a weight tensor is uploaded again: a record is of the weights of its version. */
  #version = 0;
  /**
   * The last forward pass at the current θ (`logits` without a snapshot): its input as float32, the
   * weights' version and the activations `#backward` needs. A `backward` on the same rows at the same
   * version uses them instead of running the forward pass again. Replaced by the next such pass; freed
   * by `dispose`.
   */
  #last: { input: Float32Array; rows: number; version: number; record: tf.Tensor[] } | null = null;

  /**
   * @param architecture - a checked architecture
   * @param random - uniform on [0, 1), for the initial weights
   */
  protected constructor(architecture: Architecture, random: () => number) {
    if (typeof random !== 'function') {
      throw new TypeError(`random must be a function () => number, got ${typeof random}`);
    }
    const shapes = architecture.kind === 'mlp' ? mlpShapes(architecture) : convShapes(architecture);
    this.#architecture = architecture;
    this.#forward =
      architecture.kind === 'mlp'
        ? (x, weights, record) => mlpForward(architecture, x, weights, record)
        : (x, weights, record) => convForward(architecture, x, weights, record);
    this.#backward =
      architecture.kind === 'mlp'
        ? (dz, weights, record) => mlpBackward(architecture, dz, weights, record)
        : (dz, weights, record) => convBackward(architecture, dz, weights, record);
    this.numActions = architecture.numActions;
    this.observationSize =
      architecture.kind === 'mlp'
        ? architecture.inputSize
        : architecture.channels * architecture.height * architecture.width;
    const initial = initialWeights(shapes, random);
    this.parameterShapes = shapes;
    this.#offsets = [0];
    for (const { shape } of shapes) this.#offsets.push(this.#offsets.at(-1)! + size(shape));
    this.parameters = initial;
    this.#uploaded = new Float64Array(initial.length).fill(Number.NaN);
    this.#weights = shapes.map(({ shape }) => tf.zeros(shape as number[]));
  }

  /** The architecture, as saved. */
  get architecture(): Architecture {
    return this.#architecture;
  }

  /** Bytes of θ, of its uploaded copy, and of the float32 weight tensors. */
  get memoryBytes(): number {
    return this.parameters.byteLength * 2 + this.parameters.length * 4;
  }

  /**
   * Writes the logits of a batch.
   * @param observations - `rows × observationSize` numbers, row-major
   * @param rows - number of rows
   * @param out - receives `rows × numActions` logits
   * @param parameters - evaluate at this θ instead of the current one (uploaded for this call only)
   * @returns `out`
   * @throws TfjsPolicyError `OBSERVATION_SIZE_MISMATCH` when `observations` holds fewer than
   *   `rows × observationSize` numbers
   */
  logits(
    observations: ObservationRows,
    rows: number,
    out: Float64Array,
    parameters?: Float64Array,
  ): Float64Array {
    this.#checkBatch(observations, rows, out, 'out');
    if (rows === 0) return out;
    let z: tf.Tensor;
    if (parameters === undefined) {
      this.#sync();
      z = this.#recordedForward(observations, rows);
    } else {
      z = tf.tidy(() =>
        this.#forward(
          this.#batch(observations, rows),
          this.parameterShapes.map(({ shape }, k) => this.#block(parameters, k, shape)),
        ),
      );
    }
    const values = z.dataSync();
    z.dispose();
    const n = rows * this.numActions;
    for (let i = 0; i < n; i++) out[i] = values[i]!;
    return out;
  }

  /**
   * Back-propagates a batch of logit gradients through the network: adds Σ_r (∂z(o_r)/∂θ)ᵀ g_r to `grad`
   * (one vector-Jacobian product, the gradient of Σ_r g_r · z(o_r) with g held constant). Right after
   * `logits` of the same rows at the same θ (the updaters' order), the activations of that pass are
   * reused and only the backward products run; otherwise the forward pass runs again, under `tf.grads`.
   * @param observations - the batch
   * @param rows - number of rows
   * @param logitGrad - g_r at `logitGrad[r · numActions .. (r + 1) · numActions)`
   * @param grad - ∂L/∂θ, added to in place
   * @throws TfjsPolicyError `OBSERVATION_SIZE_MISMATCH` as {@link NetworkPolicy.logits}
   */
  backward(observations: ObservationRows, rows: number, logitGrad: Float64Array, grad: Float64Array): void {
    this.#checkBatch(observations, rows, logitGrad, 'logitGrad');
    if (grad.length < this.parameters.length) {
      throw new RangeError(`grad must hold ${this.parameters.length} numbers, got ${grad.length}`);
    }
    if (rows === 0) return;
    this.#sync();
    const recorded = this.#recordOf(observations, rows);
    const grads = tf.tidy(() => {
      const g = tf.tensor2d(Float32Array.from(logitGrad.subarray(0, rows * this.numActions)), [
        rows,
        this.numActions,
      ]);
      if (recorded !== null) return this.#backward(g, this.#weights, recorded);
      const x = this.#batch(observations, rows);
      return tf.grads((...weights: tf.Tensor[]) => this.#forward(x, weights))(this.#weights, g);
    });
    for (let k = 0; k < grads.length; k++) {
      const values = grads[k]!.dataSync();
      const from = this.#offsets[k]!;
      for (let i = 0; i < values.length; i++) grad[from + i] = grad[from + i]! + values[i]!;
      grads[k]!.dispose();
    }
  }

  /**
   * The policy as a JSON record: architecture and θ. `JSON.stringify(policy.toJSON())` is one line.
   * @returns the record
   */
  toJSON(): PolicyRecord {
    return {
      format: POLICY_FORMAT,
      architecture: this.architecture,
      parameters: Array.from(this.parameters),
    };
  }

  /**
   * Loads θ from a saved record of the same architecture. Everything is checked before θ changes: a
   * refused record leaves the policy as it was.
   * @param record - a {@link PolicyRecord}, e.g. `JSON.parse` of a saved line
   * @throws TfjsPolicyError `INVALID_POLICY_FILE` (not a record), `ARCHITECTURE_MISMATCH` (naming the first
   *   field that differs, with both values), `PARAMETER_COUNT_MISMATCH`, `NON_FINITE_WEIGHT` (naming the index)
   */
  load(record: unknown): void {
    const { architecture, parameters } = readRecord(record);
    const difference = architectureDifference(this.architecture, architecture);
    if (difference !== null) {
      throw new TfjsPolicyError(
        'ARCHITECTURE_MISMATCH',
        difference.field,
        `${difference.field} is ${difference.received} in the record, ${difference.expected} in this policy`,
      );
    }
    if (parameters.length !== this.parameters.length) {
      throw new TfjsPolicyError(
        'PARAMETER_COUNT_MISMATCH',
        'parameters',
        `parameters must hold ${this.parameters.length} weights for this architecture, got ${parameters.length}`,
      );
    }
    this.parameters.set(parameters);
  }

  /** Frees the weight tensors; the policy cannot compute afterwards. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const w of this.#weights) w.dispose();
    this.#forget();
  }

  /** The logits at the current weights, the pass's activations kept as `#last` (the previous ones freed). */
  #recordedForward(observations: ObservationRows, rows: number): tf.Tensor {
    this.#forget();
    const record: tf.Tensor[] = [];
    const [z, ...kept] = tf.tidy(() => {
      const out = this.#forward(this.#batch(observations, rows), this.#weights, record);
      return [out, ...record];
    });
    const n = rows * this.observationSize;
    const input = this.#lastInput.length < n ? new Float32Array(2 * n) : this.#lastInput;
    this.#lastInput = input;
    input.set(this.#input.subarray(0, n));
    this.#last = { input, rows, version: this.#version, record: kept };
    return z!;
  }

  /** The activations of `#last` when it was this batch at the current weights, else null. */
  #recordOf(observations: ObservationRows, rows: number): tf.Tensor[] | null {
    const last = this.#last;
    if (last === null || last.rows !== rows || last.version !== this.#version) return null;
    const { input } = last;
    const n = rows * this.observationSize;
    for (let i = 0; i < n; i++) if (Math.fround(observations[i]!) !== input[i]) return null;
    return last.record;
  }

  /** Frees the kept activations. */
  #forget(): void {
    if (this.#last === null) return;
    for (const t of this.#last.record) t.dispose();
    this.#last = null;
  }

  #checkBatch(observations: ObservationRows, rows: number, out: Float64Array, outName: string): void {
    if (this.#disposed) throw new Error('the policy was disposed');
    if (!Number.isInteger(rows) || rows < 0)
      throw new RangeError(`rows must be an integer >= 0, got ${rows}`);
    const need = rows * this.observationSize;
    if (observations.length < need) {
      throw new TfjsPolicyError(
        'OBSERVATION_SIZE_MISMATCH',
        'observations',
        `observations must hold rows × observationSize = ${rows} × ${this.observationSize} = ${need} numbers (the network's input shape), got ${observations.length}`,
      );
    }
    if (out.length < rows * this.numActions) {
      throw new RangeError(`${outName} must hold ${rows * this.numActions} numbers, got ${out.length}`);
    }
  }

  /** The batch as a float32 tensor, through a scratch buffer (every tensor made from it dies in the call). */
  #batch(observations: ObservationRows, rows: number): tf.Tensor2D {
    const n = rows * this.observationSize;
    if (this.#input.length < n) this.#input = new Float32Array(n);
    const input = this.#input.subarray(0, n);
    for (let i = 0; i < n; i++) input[i] = observations[i]!;
    return tf.tensor2d(input, [rows, this.observationSize]);
  }

  #block(theta: Float64Array, k: number, shape: readonly number[]): tf.Tensor {
    const from = this.#offsets[k]!;
    const values = new Float32Array(this.#offsets[k + 1]! - from);
    // A snapshot shorter than θ reads as 0 beyond its end (the trainer's convention).
    for (let i = 0; i < values.length && from + i < theta.length; i++) values[i] = theta[from + i]!;
    return tf.tensor(values, shape as number[]);
  }

  /** Uploads the blocks of θ that changed since they were last uploaded. */
  #sync(): void {
    const theta = this.parameters;
    const seen = this.#uploaded;
    for (let k = 0; k < this.#weights.length; k++) {
      const from = this.#offsets[k]!;
      const to = this.#offsets[k + 1]!;
      let changed = false;
      // NaN in the copy at the start makes the first comparison fail, so every block uploads once.
      for (let i = from; i < to; i++) {
        if (theta[i] !== seen[i]) {
          changed = true;
          break;
        }
      }
      if (!changed) continue;
      seen.set(theta.subarray(from, to), from);
      const next = this.#block(theta, k, this.parameterShapes[k]!.shape);
      this.#weights[k]!.dispose();
      this.#weights[k] = next;
      this.#version++;
    }
  }
}

/**
 * Checks the envelope of a saved policy (format, architecture object, finite weights) without building it.
 * @throws TfjsPolicyError `INVALID_POLICY_FILE` or `NON_FINITE_WEIGHT`
 */
export function readRecord(record: unknown): { architecture: Architecture; parameters: Float64Array } {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new TfjsPolicyError(
      'INVALID_POLICY_FILE',
      'record',
      `a policy record must be an object, got ${JSON.stringify(record)}`,
    );
  }
  const { format, architecture, parameters } = record as Record<string, unknown>;
  if (format !== POLICY_FORMAT) {
    throw new TfjsPolicyError(
      'INVALID_POLICY_FILE',
      'format',
      `format must be '${POLICY_FORMAT}', got ${JSON.stringify(format)}`,
    );
  }
  const checked = readArchitecture(architecture);
  if (!Array.isArray(parameters)) {
    throw new TfjsPolicyError(
      'INVALID_POLICY_FILE',
      'parameters',
      `parameters must be an array of numbers, got ${JSON.stringify(parameters)}`,
    );
  }
  const values = new Float64Array(parameters.length);
  for (let i = 0; i < parameters.length; i++) {
    const v: unknown = parameters[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      // JSON has no NaN: JSON.stringify writes a NaN weight as null, so null is reported as what it was.
      throw new TfjsPolicyError(
        'NON_FINITE_WEIGHT',
        `parameters[${i}]`,
        `parameters[${i}] must be a finite number, got ${v === null ? 'null (NaN or ±Infinity when saved)' : String(v)}`,
      );
    }
    values[i] = v;
  }
  return { architecture: checked, parameters: values };
}
