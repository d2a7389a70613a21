/**
 * The random-walk masks of gym-sokoban's `room_topology_generation`: at every step one of them, centred
 * on the walker, is carved into floor. Rows of three cells, top to bottom.
 */
const MASKS: readonly (readonly number[])[] = [
  [0, 0, 0, 1, 1, 1, 0, 0, 0],
  [0, 1, 0, 0, 1, 0, 0, 1, 0],
  [0, 0, 0, 1, 1, 0, 0, 1, 0],
  [0, 0, 0, 1, 1, 0, 1, 1, 0],
  [0, 0, 0, 0, 1, 1, 0, 1, 0],
];
const DX = [0, 0, -1, 1];
const DY = [-1, 1, 0, 0];

/**
 * Carves a room by gym-sokoban's random walk: a walker starts on a random interior cell with a random
 * direction; at each of `steps` steps it turns to a random direction with probability `turnProbability`
 * (possibly the same one), moves one cell (clamped to the interior) and carves a random 3 × 3 mask around
 * itself. The border stays wall. Internal.
 *
 * Reference: M.-A. Schrader, gym-sokoban, `room_utils.room_topology_generation` (2018), after
 * T. Weber et al., "Imagination-augmented agents for deep reinforcement learning" (2017), appendix.
 *
 * @param width - interior columns
 * @param height - interior rows
 * @param steps - walk length
 * @param turnProbability - probability of drawing a new direction at each step
 * @param random - uniform on [0, 1)
 * @returns 1 on floor, 0 on wall, for the (width + 2) × (height + 2) grid, row-major
 */
export function roomTopology(
  width: number,
  height: number,
  steps: number,
  turnProbability: number,
  random: () => number,
): Uint8Array {
  const w = width + 2;
  const floor = new Uint8Array(w * (height + 2));
  let direction = Math.floor(random() * 4);
  let x = 1 + Math.floor(random() * width);
  let y = 1 + Math.floor(random() * height);
  for (let s = 0; s < steps; s++) {
    if (random() < turnProbability) direction = Math.floor(random() * 4);
    x = Math.min(Math.max(x + DX[direction]!, 1), width);
    y = Math.min(Math.max(y + DY[direction]!, 1), height);
    const mask = MASKS[Math.floor(random() * MASKS.length)]!;
    for (let my = 0; my < 3; my++) {
      const cy = y - 1 + my;
      if (cy < 1 || cy > height) continue;
      for (let mx = 0; mx < 3; mx++) {
        const cx = x - 1 + mx;
        if (cx >= 1 && cx <= width && mask[my * 3 + mx] === 1) floor[cy * w + cx] = 1;
      }
    }
  }
  return floor;
}
