import { describe, expect, it } from 'vitest';
import { onInterrupt, runInterruptTasks } from './interrupt-tasks.js';

describe('interrupt tasks', () => {
  it('runs each registered task once, those unregistered never, and ends when they have settled', async () => {
    const calls: string[] = [];
    const forgetA = onInterrupt(() => calls.push('a'));
    onInterrupt(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      calls.push('b');
    });
    const forgetC = onInterrupt(() => calls.push('c'));
    forgetC();
    // A grace of a minute: the test would time out if it waited for it once the tasks are done.
    await runInterruptTasks(60_000);
    expect(calls.sort()).toEqual(['a', 'b']);
    forgetA(); // after the run: harmless
    await runInterruptTasks(60_000);
    expect(calls).toHaveLength(2);
  });

  it('is not stopped by a task that throws or rejects', async () => {
    const calls: string[] = [];
    onInterrupt(() => {
      throw new Error('the server is gone');
    });
    onInterrupt(() => Promise.reject(new Error('no answer')));
    onInterrupt(() => calls.push('after'));
    await expect(runInterruptTasks(60_000)).resolves.toBeUndefined();
    expect(calls).toEqual(['after']);
  });

  it('gives a task that never settles no more than the grace', async () => {
    let settled = false;
    onInterrupt(() => new Promise(() => {}).then(() => (settled = true)));
    const start = performance.now();
    await runInterruptTasks(50);
    expect(performance.now() - start).toBeGreaterThanOrEqual(45);
    expect(settled).toBe(false);
  });
});
