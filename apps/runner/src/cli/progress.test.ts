import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';

/** A stand-in for process.stderr that records what is written. */
function fakeStream(isTTY: boolean): NodeJS.WriteStream & { text: () => string } {
  const chunks: string[] = [];
  const stream = {
    isTTY,
    columns: 100,
    write(chunk: string) {
      chunks.push(String(chunk));
      return true;
    },
    cursorTo() {
      return true;
    },
    clearLine() {
      return true;
    },
    moveCursor() {
      return true;
    },
    clearScreenDown() {
      return true;
    },
    on() {
      return stream;
    },
    removeListener() {
      return stream;
    },
    text: () => chunks.join(''),
  };
  return stream as unknown as NodeJS.WriteStream & { text: () => string };
}

describe('createProgress', () => {
  it('prints a plain line at each tenth when the stream is not a terminal', () => {
    const stream = fakeStream(false);
    const progress = createProgress({ label: 'train', total: 40, stream });
    for (let i = 0; i < 40; i++) progress.tick(1, `seed ${Math.floor(i / 20)}`);
    progress.stop();
    const lines = stream.text().trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('train: 10% (4/40) seed 0');
    expect(lines[9]).toBe('train: 100% (40/40) seed 1');
  });

  it('draws a bar on a terminal', () => {
    const stream = fakeStream(true);
    const progress = createProgress({ label: 'train', total: 10, stream });
    progress.tick(10, 'seed 0');
    progress.stop();
    expect(stream.text()).toMatch(/train \[[█░]+\] 100% \| 10\/10 \| seed 0/);
  });

  it('prints nothing when quiet', () => {
    const stream = fakeStream(false);
    const progress = createProgress({ label: 'train', total: 10, stream, quiet: true });
    progress.tick(10);
    progress.stop();
    expect(stream.text()).toBe('');
  });
});
