/**
 * The key of a search position (box cells ascending, then the player cell or region). Internal.
 *
 * @param boxes - box cells
 * @param at - offset of the first box
 * @param k - number of boxes
 * @param size - cells of the board
 * @param player - player cell (or region name)
 * @param numeric - whether size^(k+1) ≤ 2^53
 * @param codes - scratch array of k + 1 entries
 * @returns the key of a position: a number when size^(k+1) fits a double exactly, else a string of one
 *   UTF-16 unit per cell
 */
export function stateKey(
  boxes: Uint16Array,
  at: number,
  k: number,
  size: number,
  player: number,
  numeric: boolean,
  codes: number[],
): number | string {
  if (numeric) {
    let key = 0;
    for (let j = 0; j < k; j++) key = key * size + boxes[at + j]!;
    return key * size + player;
  }
  for (let j = 0; j < k; j++) codes[j] = boxes[at + j]!;
  codes[k] = player;
  return String.fromCharCode.apply(null, codes);
}
