import { describe, expect, it } from 'vitest';
import { markdownTable } from './markdown-table.js';

describe('markdownTable', () => {
  it('pads columns and aligns them', () => {
    expect(markdownTable(['seed', 'p'], [['0', '0.968']], ['r', 'r'])).toBe(
      '| seed |     p |\n| ---: | ----: |\n|    0 | 0.968 |\n',
    );
    expect(markdownTable(['a'], [['xyzw']])).toBe('| a    |\n| ---- |\n| xyzw |\n');
  });

  it('rejects rows of the wrong length', () => {
    expect(() => markdownTable(['a', 'b'], [['1']])).toThrow(
      new RangeError('rows[0] must have 2 cells, got 1'),
    );
  });
});
