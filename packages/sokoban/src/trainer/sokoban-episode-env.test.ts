import {
  SOKOBAN_FEATURE_COUNT as FEATURE_COUNT,
  type Level,
  positionGrid,
  SokobanEnv,
  seededUniform,
  sokobanFeatures,
  solve,
} from '@ftw/sokoban';
import { TabularPolicy } from '@ftw/trainer';
import { describe, expect, it } from 'vitest';
import { SMALL_LEVELS } from '../../test/small-levels.js';
import { SokobanEpisodeEnv } from './sokoban-episode-env.js';
import { SokobanLinearPolicy } from './sokoban-linear-policy.js';
import { SokobanObservations } from './sokoban-observations.js';

const SMALL = SMALL_LEVELS;

/**
 * The environment after `steps` steps of the action `pattern(t) mod 4` at step t, started again after each
 * episode: positions met, in a fixed order.
 */
function played(env: SokobanEpisodeEnv, steps: number, pattern: (t: number) => number): SokobanEpisodeEnv {
  env.reset();
  for (let t = 0; t < steps; t++) {
    const step = env.step(pattern(t) % 4);
    if (step.terminated || step.truncated) env.reset();
  }
  return env;
}

/**
 * The greedy success on levels, played with `SokobanEnv` itself: at each position the action of the largest
 * logit (the lowest on a tie): the linear policy's weights times the position's features (every one, zeros
 * included), or the tabular policy's row of the position's id (training levels; ids read from the names),
 * or action 0 where it has none.
 */
function greedySuccess(
  env: SokobanEpisodeEnv,
  policy: TabularPolicy | SokobanLinearPolicy,
  levels: readonly Level[],
  training: boolean,
): number {
  const ids = new Map(Array.from({ length: env.observationCount }, (_, id) => [env.positionName(id), id]));
  const game = new SokobanEnv({ maxSteps: SMALL.maxSteps, certify: false });
  let solved = 0;
  levels.forEach((level, index) => {
    let { observation } = game.reset({ options: { level } });
    for (;;) {
      const logits = new Float64Array(4);
      if (policy instanceof SokobanLinearPolicy) {
        const features = sokobanFeatures(
          observation.grid,
          observation.width,
          observation.height,
          new Float64Array(FEATURE_COUNT),
        );
        for (let a = 0; a < 4; a++) {
          for (let f = 0; f < FEATURE_COUNT; f++)
            logits[a]! += policy.parameters[a * FEATURE_COUNT + f]! * features[f]!;
        }
      } else {
        const id = training ? ids.get(`${index}|${observation.key}`) : undefined;
        if (id !== undefined) policy.logits(Float64Array.of(id), 1, logits);
      }
      const result = game.step(logits.indexOf(Math.max(...logits)));
      if (result.terminated && result.info.solved) solved++;
      if (result.terminated || result.truncated) break;
      observation = result.observation;
    }
  });
  return solved / levels.length;
}

/**
 * The optimal solution of a training level: at each of its positions, the position's id (created when
 * new, as training would) and the solution's action there.
 */
function solutionPath(env: SokobanEpisodeEnv, index: number): { id: number; action: number }[] {
  const level = env.trainingLevels[index]!;
  const result = solve(level);
  if (result.status !== 'solved') throw new Error(`training level ${index} is not solved`);
  const game = new SokobanEnv({ level, maxSteps: SMALL.maxSteps, certify: false });
  let key = game.reset().observation.key;
  return result.actions.map((action) => {
    const id = env.idOfPosition(`${index}|${key}`);
    key = game.step(action).observation.key;
    return { id, action };
  });
}

describe('SokobanEpisodeEnv', () => {
  it('is a task environment: resetTask plays the chosen training level, succeeded says whether it was solved', () => {
    const env = new SokobanEpisodeEnv({ ...SMALL, levels: 3 }, 0);
    expect(env.taskCount).toBe(3);
    for (let task = 0; task < 3; task++) {
      const path = solutionPath(env, task);
      expect(env.resetTask(task)).toBe(path[0]!.id);
      let step = env.step(path[0]!.action);
      for (const { action } of path.slice(1)) step = env.step(action);
      expect([step.terminated, env.succeeded]).toEqual([true, true]);
      env.resetTask(task);
      for (let t = 0; t < SMALL.maxSteps && !step.truncated; t++) step = env.step(t % 2);
      expect([step.truncated, env.succeeded]).toEqual([true, false]);
    }
  });

  it('scores the greedy policy as playing the levels with SokobanEnv does, policy after policy', () => {
    const env = played(new SokobanEpisodeEnv({ ...SMALL, heldOut: 6 }, 4), 400, (t) => t * 3 + (t >> 2));
    const solutions = env.trainingLevels.map((_, index) => solutionPath(env, index));
    const random = seededUniform(11);
    const tabular = new TabularPolicy(4, env.observationCount);
    const linear = new SokobanLinearPolicy(4, FEATURE_COUNT, env);
    const scores: number[] = [];
    const heldOut: number[] = [];
    for (let round = 0; round < 6; round++) {
      // Random logits, then, on a random subset of the training levels, the solution's actions favoured
      // along their paths: the training success moves between rounds, and the held-out one with the
      // linear policy's weights.
      for (const policy of [tabular, linear]) {
        for (let i = 0; i < policy.parameters.length; i++) policy.parameters[i] = 4 * random() - 2;
      }
      for (const path of solutions) {
        if (random() < 0.5) continue;
        for (const { id, action } of path) tabular.parameters[4 * id + action] = 10;
      }
      for (const policy of [tabular, linear]) {
        // Twice: the second evaluation replays the first one's plays (the policy did not change).
        for (let twice = 0; twice < 2; twice++) {
          const { score, details } = env.evaluate(policy);
          expect(score).toBe(greedySuccess(env, policy, env.trainingLevels, true));
          expect(details?.['heldOutSuccess']).toBe(greedySuccess(env, policy, env.heldOutLevels, false));
          if (twice === 1) continue;
          if (policy === tabular) scores.push(score);
          else heldOut.push(details!['heldOutSuccess']!);
        }
      }
    }
    // Every training level taught, then the last move of one level's solution turned away: only that
    // play's last step changes, and the level is no longer solved.
    tabular.parameters.fill(0);
    for (const path of solutions) for (const { id, action } of path) tabular.parameters[4 * id + action] = 10;
    expect(env.evaluate(tabular).score).toBe(1);
    const last = solutions[0]!.at(-1)!;
    tabular.parameters[4 * last.id + ((last.action + 1) % 4)] = 20;
    const turned = env.evaluate(tabular).score;
    expect(turned).toBe(greedySuccess(env, tabular, env.trainingLevels, true));
    expect(turned).toBeLessThan(1);
    expect(new Set(scores).size).toBeGreaterThan(1);
    // Both moved between rounds: the checks above were not of constants.
    expect(new Set(heldOut).size).toBeGreaterThan(1);
  });

  it('numbers positions densely as they are met, the same way for the same seed', () => {
    const play = (seed: number): number[] => {
      const env = new SokobanEpisodeEnv(SMALL, seed);
      const ids = [env.reset()];
      for (let t = 0; t < 200; t++) {
        const step = env.step((t * 7) % 4);
        if (step.terminated || step.truncated) ids.push(env.reset());
        else ids.push(step.observation);
        expect(ids.at(-1)!).toBeLessThan(env.observationCount);
      }
      expect(new Set(ids).size).toBe(env.observationCount);
      return ids;
    };
    const a = play(1);
    expect(a[0]).toBe(0);
    expect(play(1)).toEqual(a);
  });

  it("computes each position's features from its own board, read from the start or first read late", () => {
    // Read from the start: each from the live board the environment hands out as it meets the position.
    // First read after the play: from the boards rebuilt from the levels and keys.
    for (const early of [true, false]) {
      const env = new SokobanEpisodeEnv({ ...SMALL, levelSeed: 5 }, 3);
      if (early) expect(env.featureData).toHaveLength(0); // turns them on; no position met yet
      played(env, 300, (t) => t * 5 + (t >> 3));
      expect(env.observationCount).toBeGreaterThan(20);
      const expected = new Float32Array(FEATURE_COUNT);
      for (let id = 0; id < env.observationCount; id++) {
        const name = env.positionName(id);
        const bar = name.indexOf('|');
        const level = env.trainingLevels[Number(name.slice(0, bar))]!;
        sokobanFeatures(positionGrid(level, name.slice(bar + 1)), level.width, level.height, expected);
        expect(env.featureData.subarray(id * FEATURE_COUNT, (id + 1) * FEATURE_COUNT)).toEqual(expected);
      }
    }
  });

  it('keeps training and held-out levels apart and the same for every run seed', () => {
    const a = new SokobanEpisodeEnv(SMALL, 1);
    const b = new SokobanEpisodeEnv(SMALL, 2);
    expect(a.trainingLevels).toHaveLength(4);
    expect(a.heldOutLevels).toHaveLength(3);
    expect(b.trainingLevels).toEqual(a.trainingLevels);
    for (const h of a.heldOutLevels) expect(a.trainingLevels).not.toContainEqual(h);
  });

  it('checks again only the levels of the moved positions when told which moved, with the same scores', () => {
    const env = played(new SokobanEpisodeEnv({ ...SMALL, heldOut: 4 }, 5), 600, (t) => t * 7 + (t >> 3));
    const solutions = env.trainingLevels.map((_, index) => solutionPath(env, index));
    const random = seededUniform(5);
    const policy = new TabularPolicy(4, env.observationCount);
    const other = new TabularPolicy(4, env.observationCount);
    const check = (p: TabularPolicy, moved?: Int32Array) => {
      const { score, details } = env.evaluate(p, moved);
      expect(score).toBe(greedySuccess(env, p, env.trainingLevels, true));
      expect(details?.['heldOutSuccess']).toBe(greedySuccess(env, p, env.heldOutLevels, false));
      return score;
    };
    check(policy);
    const scores = new Set<number>();
    for (let round = 0; round < 40; round++) {
      // Some rows of some levels' solution paths taught or turned away, the others as they were; the
      // moved rows listed (none in some rounds).
      const moved = new Set<number>();
      for (const path of solutions) {
        if (random() < 0.7) continue;
        for (const { id, action } of path) {
          if (random() < 0.5) continue;
          const at = 4 * id + (random() < 0.7 ? action : (action + 1) % 4);
          policy.parameters[at] = policy.parameters[at]! + 10;
          moved.add(id);
        }
      }
      scores.add(check(policy, Int32Array.from([...moved].sort((a, b) => a - b))));
      // Another policy object in between: its evaluation checks everything, and so does the next one of
      // the first policy, whatever the list says.
      if (round % 10 === 9) {
        other.parameters.set(policy.parameters.map(() => 4 * random() - 2));
        check(other, new Int32Array(0));
        check(policy, new Int32Array(0));
      }
    }
    expect(scores.size).toBeGreaterThan(2);
    // A linear policy's weights move the logits of every position, the held-out ones (without ids)
    // included, so a list of ids cannot say what moved: its evaluation checks everything.
    const linear = new SokobanLinearPolicy(4, FEATURE_COUNT, env);
    const all = Int32Array.from({ length: env.observationCount }, (_, id) => id);
    const heldOut = new Set<number>();
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < linear.parameters.length; i++) linear.parameters[i] = 4 * random() - 2;
      const { score, details } = env.evaluate(linear, all);
      expect(score).toBe(greedySuccess(env, linear, env.trainingLevels, true));
      expect(details?.['heldOutSuccess']).toBe(greedySuccess(env, linear, env.heldOutLevels, false));
      heldOut.add(details!['heldOutSuccess']!);
    }
    expect(heldOut.size).toBeGreaterThan(1);
  });

  it('reads, at the next evaluation, positions that got their ids after they were played', () => {
    // Nothing trained: evaluation plays every level on positions without ids (logits 0, always Up).
    const env = new SokobanEpisodeEnv(SMALL, 4);
    const tabular = new TabularPolicy(4);
    expect(env.evaluate(tabular).score).toBe(greedySuccess(env, tabular, env.trainingLevels, true));
    // Then training meets the positions of level 0's solution, and the policy learns its actions there.
    const path = solutionPath(env, 0);
    tabular.logits(Float64Array.of(env.observationCount - 1), 1, new Float64Array(4)); // the rows, at 0
    for (const { id, action } of path) tabular.parameters[4 * id + action] = 5;
    const score = env.evaluate(tabular).score;
    expect(score).toBe(greedySuccess(env, tabular, env.trainingLevels, true));
    expect(score).toBeGreaterThanOrEqual(1 / env.trainingLevels.length);
  });

  it('evaluates the greedy policy without creating ids; a uniform tabular policy always pushes up', () => {
    const env = new SokobanEpisodeEnv(SMALL, 1);
    env.reset();
    const before = env.observationCount;
    const { score, details } = env.evaluate(new TabularPolicy(4));
    expect(env.observationCount).toBe(before);
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(1);
    expect(details?.['heldOutSuccess']).toBeGreaterThanOrEqual(0);
  });

  it('shares one numbering between environments given one registry: one id per position, whichever actor met it', () => {
    // Actors A and B (seeds 1 and 2) step in turn on one registry; A' and B' replay them alone, each on
    // its own registry. Every id of B must carry the features of B's own position (an id local to B
    // would index A's positions), the ids must map one-to-one onto each actor's own numbering, and a
    // position both actors met must have one id.
    const shared = new SokobanObservations();
    const pairs = [1, 2].map((seed) => ({
      together: new SokobanEpisodeEnv(SMALL, seed, shared),
      alone: new SokobanEpisodeEnv(SMALL, seed),
      ids: new Map<number, number>(),
    }));
    const row = (data: Float32Array, id: number) =>
      Array.from(data.subarray(id * FEATURE_COUNT, (id + 1) * FEATURE_COUNT));
    const record = (p: (typeof pairs)[number], id: number, own: number) => {
      expect(p.ids.get(id) ?? own).toBe(own);
      p.ids.set(id, own);
      expect(row(p.together.featureData, id)).toEqual(row(p.alone.featureData, own));
    };
    for (const p of pairs) record(p, p.together.reset(), p.alone.reset());
    for (let t = 0; t < 300; t++) {
      for (const p of pairs) {
        const action = (t * 7 + (p === pairs[0] ? 0 : 3)) % 4;
        const a = p.together.step(action);
        const b = p.alone.step(action);
        expect(a.terminated || a.truncated).toBe(b.terminated || b.truncated);
        if (a.terminated || a.truncated) record(p, p.together.reset(), p.alone.reset());
        else record(p, a.observation, b.observation);
      }
    }
    const [a, b] = pairs as [(typeof pairs)[0], (typeof pairs)[0]];
    for (const p of pairs) expect(new Set(p.ids.values()).size).toBe(p.ids.size); // one-to-one
    const both = [...a.ids.keys()].filter((id) => b.ids.has(id)).length;
    expect(both).toBeGreaterThan(0);
    expect(shared.count).toBe(a.ids.size + b.ids.size - both);
    expect(a.together.observationCount).toBe(shared.count);
  });

  it('numbers by name the positions that environments with registries of their own met (actor processes)', () => {
    // Actors A and B (seeds 1 and 2) number positions each on its own; the learner L numbers them again
    // from their names. Each of L's ids must carry the features the actor computed for its own id, and a
    // position both actors met must get one id.
    const learner = new SokobanEpisodeEnv(SMALL, 0);
    const actors = [1, 2].map((seed) => new SokobanEpisodeEnv(SMALL, seed));
    const row = (data: Float32Array, id: number) =>
      Array.from(data.subarray(id * FEATURE_COUNT, (id + 1) * FEATURE_COUNT));
    const idByName = new Map<string, number>();
    const record = (actor: SokobanEpisodeEnv, own: number) => {
      const name = actor.positionName(own);
      const id = learner.idOfPosition(name);
      expect(idByName.get(name) ?? id).toBe(id);
      idByName.set(name, id);
      expect(learner.positionName(id)).toBe(name);
      expect(row(learner.featureData, id)).toEqual(row(actor.featureData, own));
    };
    const seen = actors.map(() => new Set<string>());
    for (const [i, actor] of actors.entries()) {
      const id = actor.reset();
      seen[i]!.add(actor.positionName(id));
      record(actor, id);
    }
    for (let t = 0; t < 300; t++) {
      for (const [i, actor] of actors.entries()) {
        const step = actor.step((t * 7 + 3 * i) % 4);
        const id = step.terminated || step.truncated ? actor.reset() : step.observation;
        seen[i]!.add(actor.positionName(id));
        record(actor, id);
      }
    }
    const both = [...seen[0]!].filter((n) => seen[1]!.has(n)).length;
    expect(both).toBeGreaterThan(0);
    expect(learner.observationCount).toBe(seen[0]!.size + seen[1]!.size - both);
    expect(new Set(idByName.values()).size).toBe(idByName.size);
  });

  it('refuses a position name that is not one of its training positions, naming it', () => {
    const env = new SokobanEpisodeEnv(SMALL, 0);
    const start = env.positionName(env.reset());
    const key = start.slice(start.indexOf('|') + 1);
    expect(env.idOfPosition(start)).toBe(0);
    for (const bad of [key, `x|${key}`, `-1|${key}`, `01|${key}`, `4|${key}`, `|${key}`]) {
      expect(() => env.idOfPosition(bad)).toThrow(
        `name must be <training level>|<key> with a level in 0 … 3, got ${JSON.stringify(bad)}`,
      );
    }
    expect(() => env.idOfPosition('0|')).toThrow(/^key must have 2 cells \(the player, then 1 box\), got ""/);
    expect(() => env.idOfPosition(`0|${String.fromCharCode(0, 1)}`)).toThrow(
      /puts the player on a wall: cell 0/,
    );
    expect(env.observationCount).toBe(1);
    expect(() => env.positionName(1)).toThrow('id must be an id handed out (0 … 0), got 1');
  });

  it('subtracts the length tie-break from every reward', () => {
    const plain = new SokobanEpisodeEnv(SMALL, 4);
    const tied = new SokobanEpisodeEnv({ ...SMALL, lengthTiebreak: 1e-6 }, 4);
    plain.reset();
    tied.reset();
    for (let t = 0; t < 30; t++) {
      const a = plain.step(t % 4);
      const b = tied.step(t % 4);
      expect(b.reward).toBe(a.reward - 1e-6);
      if (a.terminated || a.truncated) break;
    }
  });
});

describe('SokobanLinearPolicy', () => {
  it("reads a registry's features without their zeros, with the same logits and gradients bit for bit", () => {
    // Real positions' features (a quarter nonzero, some offsets fractional), and weights of both signs.
    const env = played(new SokobanEpisodeEnv({ ...SMALL, size: 6 }, 5), 300, (t) => t * 3 + (t >> 3));
    const random = seededUniform(7);
    // Sokoban's four actions (the four sums side by side), and three (one sum after another).
    for (const actions of [4, 3]) {
      const sparse = new SokobanLinearPolicy(actions, FEATURE_COUNT, env);
      const dense = new SokobanLinearPolicy(actions, FEATURE_COUNT, { featureData: env.featureData });
      for (let i = 0; i < sparse.parameters.length; i++) sparse.parameters[i] = 6 * random() - 3;
      dense.parameters.set(sparse.parameters);
      const [zs, zd] = [new Float64Array(actions), new Float64Array(actions)];
      const [gs, gd] = [
        new Float64Array(sparse.parameters.length),
        new Float64Array(dense.parameters.length),
      ];
      for (let id = 0; id < env.observationCount; id++) {
        expect(sparse.logits(Float64Array.of(id), 1, zs)).toEqual(dense.logits(Float64Array.of(id), 1, zd));
        const g = Float64Array.from({ length: actions }, (_, a) => (a === id % actions ? 0 : random() - 0.5));
        sparse.backward(Float64Array.of(id), 1, g, gs);
        dense.backward(Float64Array.of(id), 1, g, gd);
      }
      expect(gs).toEqual(gd);
    }
    // The compressed rows are the nonzero features, columns increasing.
    const { rowStart, columns, values } = env.sparseFeatures;
    for (let id = 0; id < env.observationCount; id++) {
      const row = Array.from(env.featureData.subarray(id * FEATURE_COUNT, (id + 1) * FEATURE_COUNT));
      const nonzero = row.flatMap((v, f) => (v === 0 ? [] : [[f, v]]));
      const kept = Array.from({ length: rowStart[id + 1]! - rowStart[id]! }, (_, k) => [
        columns[rowStart[id]! + k]!,
        values[rowStart[id]! + k]!,
      ]);
      expect(kept).toEqual(nonzero);
    }
  });

  it("back-propagates the logits' gradient as finite differences of the logits do", () => {
    const features = { featureData: Float32Array.from({ length: 3 * 5 }, (_, i) => Math.sin(i + 1)) };
    const policy = new SokobanLinearPolicy(4, 5, features);
    policy.parameters.set(Array.from({ length: 20 }, (_, i) => Math.cos(i)));
    const g = Float64Array.of(0.3, -1.2, 0.5, 2);
    const grad = new Float64Array(20);
    policy.backward(Float64Array.of(2), 1, g, grad);
    const z = new Float64Array(4);
    const h = 1e-6;
    for (let k = 0; k < 20; k++) {
      const saved = policy.parameters[k]!;
      policy.parameters[k] = saved + h;
      const up = policy.logits(Float64Array.of(2), 1, z).reduce((s, v, a) => s + v * g[a]!, 0);
      policy.parameters[k] = saved - h;
      const down = policy.logits(Float64Array.of(2), 1, z).reduce((s, v, a) => s + v * g[a]!, 0);
      policy.parameters[k] = saved;
      expect(grad[k]).toBeCloseTo((up - down) / (2 * h), 6);
    }
    // Each logit is the dot product of its row of W with the observation's features.
    policy.logits(Float64Array.of(1), 1, z);
    for (let a = 0; a < 4; a++) {
      let dot = 0;
      for (let f = 0; f < 5; f++) dot += policy.parameters[a * 5 + f]! * features.featureData[5 + f]!;
      expect(z[a]).toBeCloseTo(dot, 12);
    }
  });
});
