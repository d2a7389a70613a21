/**
 * Policy logits: `rows × actions` numbers in row-major order (row `i`, action `j` at `i * actions + j`).
 * Float32 input is read as Float64; every computation runs in Float64.
 */
export type Logits = Float32Array | Float64Array;
