import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { exhaustiveSolve, ModelBoard } from '../test/model.js';
import { smallLevelArb } from '../test/random-levels.js';
import { Action } from './action.js';
import { formatLevel } from './format-level.js';
import { parseLevel } from './parse-level.js';
import { SokobanEnv, type SokobanStepResult } from './sokoban-env.js';
import { SokobanError } from './sokoban-error.js';
import type { SokobanWarning } from './sokoban-warning.js';
import { solve } from './solve.js';
import { Tile } from './tile.js';

const ONE_PUSH = parseLevel('######\n#@ $.#\n######');

/** The key as documented, read off a grid: the player's cell, then the box cells ascending. */
function keyOfGrid(grid: Uint8Array): string {
  let player = -1;
  const boxes: number[] = [];
  grid.forEach((tile, cell) => {
    if (tile === Tile.Player || tile === Tile.PlayerOnTarget) player = cell;
    if (tile === Tile.Box || tile === Tile.BoxOnTarget) boxes.push(cell);
  });
  return String.fromCharCode(player, ...boxes);
}

function unsolvedText(text: string): boolean {
  return text.includes('$');
}

describe('SokobanEnv', () => {
  test.prop(
    [
      smallLevelArb(3).filter(unsolvedText),
      fc.array(fc.nat(3), { minLength: 1, maxLength: 60 }),
      fc.constantFrom('binary' as const, 'shaped' as const),
      fc.integer({ min: 1, max: 40 }),
    ],
    { numRuns: 300 },
  )(
    'moves, pushes, rewards, ends and truncates as an independent model of the rules',
    (text, actions, reward, maxSteps) => {
      const env = new SokobanEnv({ level: parseLevel(text), reward, maxSteps, certify: false });
      const model = new ModelBoard(text);
      const first = env.reset();
      expect(env.render()).toBe(model.text());
      expect(first.info).toMatchObject({ steps: 0, solved: false, boxesOnTarget: model.count('*') });
      expect(first.observation.key).toBe(keyOfGrid(first.observation.grid));
      const keyOfText = new Map<string, string>([[first.observation.key, model.text()]]);
      for (let t = 0; t < actions.length; t++) {
        const before = model.count('*');
        const expected = model.step(actions[t]!);
        const solved = model.solved();
        const after = model.count('*');
        const shaped = -0.1 + (after > before ? 1 : after < before ? -1 : 0) + (solved ? 10 : 0);
        const result = env.step(actions[t]!);
        expect(env.render()).toBe(model.text());
        expect(result.reward).toBe(reward === 'binary' ? (solved ? 1 : 0) : shaped);
        expect(result.terminated).toBe(solved);
        expect(result.truncated).toBe(!solved && t + 1 === maxSteps);
        expect(result.info).toMatchObject({ ...expected, steps: t + 1, solved, boxesOnTarget: after });
        expect(result.observation.key).toBe(keyOfGrid(result.observation.grid));
        const known = keyOfText.get(result.observation.key);
        expect(known === undefined || known === model.text()).toBe(true);
        keyOfText.set(result.observation.key, model.text());
        if (result.terminated || result.truncated) {
          expect(() => env.step(0)).toThrow(SokobanError);
          break;
        }
      }
      expect(new Set(keyOfText.values()).size).toBe(keyOfText.size);
    },
  );

  test.prop([smallLevelArb(3).filter(unsolvedText), fc.array(fc.nat(3), { minLength: 1, maxLength: 40 })], {
    numRuns: 100,
  })(
    "observationGrid 'live' hands out the board itself, equal at every step to the copy 'copy' hands out",
    (text, actions) => {
      const level = parseLevel(text);
      const copied = new SokobanEnv({ level, certify: false, maxSteps: 1000 });
      const live = new SokobanEnv({ level, certify: false, maxSteps: 1000, observationGrid: 'live' });
      let copy = copied.reset().observation.grid;
      const board = live.reset().observation.grid;
      expect(board).toEqual(copy);
      for (const a of actions) {
        const expected = copied.step(a);
        const result = live.step(a);
        // The same array every step (no copy), showing this step's board; each copy is a new array.
        expect(result.observation.grid).toBe(board);
        expect(expected.observation.grid).not.toBe(copy);
        copy = expected.observation.grid;
        expect(result.observation.grid).toEqual(expected.observation.grid);
        expect({ ...result.observation, grid: null }).toEqual({ ...expected.observation, grid: null });
        if (expected.terminated) break;
      }
    },
  );

  test.prop([smallLevelArb(2).filter(unsolvedText), fc.array(fc.nat(3), { minLength: 1, maxLength: 30 })], {
    numRuns: 60,
  })('reports a dead-square box only in positions that cannot be solved', (text, actions) => {
    const env = new SokobanEnv({ level: parseLevel(text), certify: false, maxSteps: 1000 });
    env.reset();
    for (const a of actions) {
      const { info, terminated } = env.step(a);
      if (info.deadlocked) expect(exhaustiveSolve(env.render())).toBeNull();
      if (terminated) break;
    }
  });

  it('solves the one-push level with a binary reward of 1 on the last step only', () => {
    const env = new SokobanEnv({ level: ONE_PUSH });
    const start = env.reset();
    expect(start.info).toEqual({
      steps: 0,
      boxesOnTarget: 0,
      solved: false,
      deadlocked: false,
      moved: false,
      pushed: false,
      validAction: true,
      actions: 0,
      optimalMoves: 2,
      maxSteps: 100,
    });
    expect(start.observation.grid).toEqual(ONE_PUSH.grid);
    expect(start.observation.grid).not.toBe(ONE_PUSH.grid);
    expect(env.step(Action.Right)).toMatchObject({ reward: 0, terminated: false, truncated: false });
    const last = env.step(Action.Right);
    expect(last).toMatchObject({ reward: 1, terminated: true, truncated: false });
    expect(last.info).toMatchObject({ steps: 2, solved: true, pushed: true, boxesOnTarget: 1 });
    expect(env.render()).toBe('######\n#  @*#\n######');
    expect(env.render('ragen')).toBe('######\n#__P√#\n######');
    expect(() => env.step(Action.Left)).toThrow(/RESET_REQUIRED: step after the episode ended/);
  });

  it('pays the shaped rewards of gym-sokoban', () => {
    const level = parseLevel(
      ['########', '#@$. . #', '#      #', '#    $ #', '#      #', '########'].join('\n'),
    );
    const env = new SokobanEnv({ level, reward: 'shaped' });
    env.reset();
    expect(env.step(Action.Down).reward).toBeCloseTo(-0.1, 15);
    expect(env.step(Action.Up).reward).toBeCloseTo(-0.1, 15);
    expect(env.step(Action.Right).reward).toBeCloseTo(0.9, 15); // box onto the first target
    expect(env.step(Action.Right).reward).toBeCloseTo(-1.1, 15); // and off it again
  });

  it('ends on a dead square when asked, and only then', () => {
    const level = parseLevel('######\n#    #\n# $@ #\n#   .#\n######');
    const lenient = new SokobanEnv({ level });
    lenient.reset();
    const step = lenient.step(Action.Left);
    expect(step.info.deadlocked).toBe(true);
    expect(step.terminated).toBe(false);
    const strict = new SokobanEnv({ level, endOnDeadlock: true });
    strict.reset();
    expect(strict.step(Action.Left)).toMatchObject({ terminated: true, truncated: false, reward: 0 });
  });

  it('truncates after maxSteps steps', () => {
    const env = new SokobanEnv({ level: ONE_PUSH, maxSteps: 3 });
    env.reset();
    expect(env.step(Action.Left).truncated).toBe(false);
    expect(env.step(Action.Left).truncated).toBe(false);
    expect(env.step(Action.Left)).toMatchObject({ truncated: true, terminated: false, info: { steps: 3 } });
    expect(() => env.step(Action.Left)).toThrow(SokobanError);
  });

  it('lets a level longer than 100 moves be solved under the default step limit, 3 × its optimum', () => {
    const corridor = parseLevel(`${'#'.repeat(115)}\n#@$${' '.repeat(110)}.#\n${'#'.repeat(115)}`);
    const optimum = solve(corridor);
    expect(optimum).toMatchObject({ status: 'solved', moves: 111 });
    const env = new SokobanEnv({ level: corridor });
    expect(env.reset().info).toMatchObject({ optimalMoves: 111, maxSteps: 333 });
    let last: SokobanStepResult | undefined;
    for (const a of optimum.status === 'solved' ? optimum.actions : []) last = env.step(a);
    expect(last).toMatchObject({ terminated: true, truncated: false, reward: 1, info: { steps: 111 } });
    // 332 bumps into the wall still leave the episode open; the 333rd step truncates it.
    env.reset();
    for (let t = 1; t < 333; t++) expect(env.step(Action.Left).truncated).toBe(false);
    expect(env.step(Action.Left)).toMatchObject({ truncated: true, info: { steps: 333, maxSteps: 333 } });
    // Short levels keep the floor of 100 steps; uncertified ones scale with area cells × boxes.
    expect(new SokobanEnv({ level: ONE_PUSH }).reset().info.maxSteps).toBe(100);
    const open = parseLevel('#######\n#@ $ .#\n# $  .#\n#     #\n#     #\n#######');
    expect(new SokobanEnv({ level: open, certify: false, maxSteps: 'auto' }).reset().info).toMatchObject({
      optimalMoves: -1,
      maxSteps: 4 * 20 * 2,
    });
  });

  it('warns once per level, through onWarning, when an explicit maxSteps is below the optimum', () => {
    const corridor = parseLevel(`${'#'.repeat(115)}\n#@$${' '.repeat(110)}.#\n${'#'.repeat(115)}`);
    const warnings: SokobanWarning[] = [];
    const env = new SokobanEnv({ level: corridor, maxSteps: 110, onWarning: (w) => warnings.push(w) });
    expect(env.reset().info.maxSteps).toBe(110);
    env.reset();
    expect(warnings).toEqual([
      {
        code: 'MAX_STEPS_BELOW_OPTIMUM',
        message: expect.stringMatching(
          /maxSteps 110 is below the level's optimal solution length of 111 moves/,
        ),
        maxSteps: 110,
        optimalMoves: 111,
      },
    ]);
    env.reset({ options: { level: ONE_PUSH } });
    expect(warnings).toHaveLength(1);
    const fits = new SokobanEnv({ level: corridor, maxSteps: 111, onWarning: (w) => warnings.push(w) });
    fits.reset();
    expect(warnings).toHaveLength(1);
    const generated = new SokobanEnv({ maxSteps: 1, seed: 3, onWarning: (w) => warnings.push(w) });
    const { info } = generated.reset();
    expect(warnings[1]).toMatchObject({ maxSteps: 1, optimalMoves: info.optimalMoves });
    expect(() => new SokobanEnv({ onWarning: 'log' as never })).toThrow(
      /options.onWarning must be a function, got "log"/,
    );
    expect(() => new SokobanEnv({ maxSteps: 'long' as never })).toThrow(
      /options.maxSteps must be an integer >= 1 or 'auto', got "long"/,
    );
  });

  test.prop(
    [
      smallLevelArb(3).filter(unsolvedText),
      fc.array(fc.array(fc.nat(3), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }),
      fc.constantFrom('binary' as const, 'shaped' as const),
      fc.integer({ min: 1, max: 20 }),
    ],
    { numRuns: 200 },
  )(
    'stepText carries out every action of a multi-action answer in order, stops when the episode ends, and counts them',
    (text, answers, reward, maxSteps) => {
      const env = new SokobanEnv({ level: parseLevel(text), reward, maxSteps, certify: false });
      const model = new ModelBoard(text);
      env.reset();
      let steps = 0;
      for (const answer of answers) {
        let carried = 0;
        let total = 0;
        let solved = false;
        for (const a of answer) {
          const before = model.count('*');
          model.step(a);
          steps++;
          carried++;
          solved = model.solved();
          const after = model.count('*');
          total +=
            reward === 'binary'
              ? solved
                ? 1
                : 0
              : -0.1 + (after > before ? 1 : after < before ? -1 : 0) + (solved ? 10 : 0);
          if (solved || steps === maxSteps) break;
        }
        const names = answer.map((a) => ['Up', 'Down', 'Left', 'Right'][a]).join(' || ');
        const result = env.stepText(`<answer>${names}</answer>`);
        expect(env.render()).toBe(model.text());
        expect(result.info).toMatchObject({ actions: carried, steps, solved });
        expect(result.reward).toBe(total);
        expect(result.terminated).toBe(solved);
        expect(result.truncated).toBe(!solved && steps === maxSteps);
        if (result.terminated || result.truncated) break;
      }
    },
  );

  it('reads text actions, and errs or penalizes garbage as the caller chose', () => {
    const env = new SokobanEnv({ level: ONE_PUSH });
    env.reset();
    const both = env.stepText('<answer>Right || Right</answer>');
    expect(both).toMatchObject({ reward: 1, terminated: true, info: { steps: 2, actions: 2 } });
    env.reset();
    expect(() => env.stepText('jump')).toThrow(/INVALID_ACTION: "jump"/);
    expect(env.step(Action.Right).info.steps).toBe(1);
    const lenient = new SokobanEnv({
      level: ONE_PUSH,
      invalidAction: 'penalize',
      invalidActionPenalty: -0.5,
    });
    lenient.reset();
    const bad = lenient.stepText('I think I will go north-east');
    expect(bad).toMatchObject({
      reward: -0.5,
      terminated: false,
      info: { steps: 1, validAction: false, moved: false },
    });
    expect(lenient.render()).toBe(formatLevel(ONE_PUSH));
    expect(lenient.stepText('<action>right</action>').info).toMatchObject({ steps: 2, validAction: true });
  });

  it('generates a level per reset from its seed, reproducibly', () => {
    const a = new SokobanEnv({ seed: 4 });
    const b = new SokobanEnv({ seed: 4 });
    const first = a.reset().observation.grid;
    expect(b.reset().observation.grid).toEqual(first);
    const second = a.reset().observation.grid;
    expect(second).not.toEqual(first);
    expect(a.reset({ seed: 4 }).observation.grid).toEqual(first);
    const level = parseLevel(formatLevel(ONE_PUSH));
    expect(a.reset({ options: { level } }).info.optimalMoves).toBe(2);
  });

  it('rejects unsolvable, uncertifiable and malformed levels, bad actions and misuse', () => {
    const corner = parseLevel('#####\n#$ .#\n#  @#\n#####');
    expect(() => new SokobanEnv({ level: corner }).reset()).toThrow(/UNSOLVABLE_LEVEL/);
    expect(new SokobanEnv({ level: corner, certify: false }).reset().info.optimalMoves).toBe(-1);
    const far = parseLevel('########\n#@ $  .#\n########');
    expect(() => new SokobanEnv({ level: far, certifyStates: 1 }).reset()).toThrow(/SOLVER_LIMIT/);
    const done = parseLevel('#####\n#@* #\n#####');
    expect(() => new SokobanEnv({ level: done }).reset()).toThrow(/already stands on a target/);
    expect(() => new SokobanEnv({ level: { width: 3, height: 3, grid: new Uint8Array(9) } })).toThrow(
      /exactly one player, found 0/,
    );
    const env = new SokobanEnv({ level: ONE_PUSH });
    expect(() => env.step(0)).toThrow(/RESET_REQUIRED: step before reset/);
    expect(() => env.render()).toThrow(/RESET_REQUIRED/);
    env.reset();
    expect(() => env.step(4)).toThrow(RangeError);
    expect(() => env.step(4)).toThrow(/action must be an integer in \[0, 3\], got 4/);
    expect(() => env.step('up' as never)).toThrow(TypeError);
    expect(env.step(Action.Right).info.steps).toBe(1);
    expect(() => new SokobanEnv({ maxSteps: 0 })).toThrow(/options.maxSteps/);
    expect(() => new SokobanEnv({ reward: 'dense' as never })).toThrow(
      /options.reward must be one of 'binary', 'shaped', got "dense"/,
    );
    expect(() => new SokobanEnv({ observationGrid: 'view' as never })).toThrow(
      /options.observationGrid must be one of 'copy', 'live', got "view"/,
    );
    expect(() => new SokobanEnv({ seed: 1, random: () => 0.5 })).toThrow(/cannot both be given/);
    const injected = new SokobanEnv({ random: () => 0.25 });
    expect(() => injected.reset({ seed: 3 })).toThrow(/NOT_RESEEDABLE/);
  });
});
