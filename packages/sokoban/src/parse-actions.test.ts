import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES } from './action.js';
import { parseActions } from './parse-actions.js';
import { SokobanError } from './sokoban-error.js';

describe('parseActions', () => {
  it('reads bare names, RAGEN answers and action tags', () => {
    expect(parseActions('up')).toEqual([0]);
    expect(parseActions('  Down \n')).toEqual([1]);
    expect(parseActions('<answer>Right || Up</answer>')).toEqual([3, 0]);
    expect(parseActions('<action>left</action>')).toEqual([2]);
    expect(parseActions('<think>the box is above me</think> <answer> UP||left </answer>')).toEqual([0, 2]);
    expect(parseActions('<ANSWER>right</ANSWER><answer>up</answer>')).toEqual([3]);
  });

  test.prop([fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }), fc.boolean()])(
    'reads back any list of names in any letter case',
    (actions, tagged) => {
      const names = actions.map((a, i) =>
        i % 2 === 0 ? ACTION_NAMES[a]!.toUpperCase() : ACTION_NAMES[a]!.toLowerCase(),
      );
      const body = names.join(' || ');
      expect(parseActions(tagged ? `<answer>${body}</answer>` : body)).toEqual(actions);
    },
  );

  it('rejects garbage with the offending token', () => {
    for (const bad of [
      '',
      'north',
      'up down',
      '<answer></answer>',
      'up ||',
      'constructor',
      '<answer>up</action>x',
    ]) {
      expect(() => parseActions(bad)).toThrow(SokobanError);
    }
    expect(() => parseActions('<answer>Right || Jump</answer>')).toThrow(/INVALID_ACTION: "Jump" in/);
    expect(() => parseActions(3 as never)).toThrow(TypeError);
  });
});
