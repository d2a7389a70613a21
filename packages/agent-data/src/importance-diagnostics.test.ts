import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { importanceDiagnostics } from './importance-diagnostics.js';
import type { Trajectory } from './trajectory-schema.js';

const traced = (id: string, turns: number[][], version: number): Trajectory => ({
  id,
  task: 't',
  messages: [
    { role: 'user', content: 'go' },
    ...turns.map((logprobs) => ({
      role: 'assistant' as const,
      content: 'x',
      trace: { logprobs, policyVersion: version },
    })),
  ],
  reward: 1,
});

const items = [
  traced('a', [[-1, -2], [-0.5]], 3),
  traced('b', [[-0.1]], 5),
  traced('c', [[-3]], 4),
  {
    id: 'u',
    task: 't',
    messages: [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: 'y' },
    ],
    reward: 0,
  } satisfies Trajectory,
];

const file = (records: object[]) => Readable.from([records.map((r) => JSON.stringify(r)).join('\n')]);

describe('importanceDiagnostics', () => {
  it('sums log π − log q over every token and computes the ESS with the counts as multiplicities', async () => {
    const d = await importanceDiagnostics(
      items,
      [2, 1, 0, 3],
      file([
        { id: 'a', logprobs: [[-0.5, -2], [-1]] },
        { id: 'b', logprobs: [[-0.1]] },
        { id: 'c', logprobs: [[-1]] },
      ]),
    );
    // a: (−0.5 + 1) + (−2 + 2) + (−1 + 0.5) = 0; b: 0. c is not selected (count 0), u has no trace.
    expect(d.logWeights).toEqual([
      { id: 'a', logWeight: 0 },
      { id: 'b', logWeight: 0 },
    ]);
    expect(d.ess).toBeCloseTo(3, 12);
    expect(d.essFraction).toBeCloseTo(1, 12);
    expect(d.versions).toEqual({ min: 3, max: 5 });
    expect(d).toMatchObject({ traced: 2, matched: 2, mismatched: 0 });
  });

  it("counts the turns of a run's additional histories, after its own", async () => {
    const main = traced('h', [[-1]], 2);
    const run: Trajectory = {
      ...main,
      additionalHistories: [
        {
          messages: [
            { role: 'user', content: 'sub' },
            { role: 'assistant', content: 'z', trace: { logprobs: [-2, -1], policyVersion: 7 } },
          ],
        },
      ],
    };
    const d = await importanceDiagnostics([run], [1], file([{ id: 'h', logprobs: [[-0.5], [-1, -1]] }]));
    // (−0.5 + 1) + (−1 + 2) + (−1 + 1) = 1.5, over the main turn then the history's.
    expect(d.logWeights).toEqual([{ id: 'h', logWeight: 1.5 }]);
    expect(d.versions).toEqual({ min: 2, max: 7 });
    // The current policy's file must give every turn: two arrays for two turns, or the run is mismatched.
    const short = await importanceDiagnostics([run], [1], file([{ id: 'h', logprobs: [[-0.5]] }]));
    expect(short).toMatchObject({ matched: 0, mismatched: 1 });
    // A history turn without a trace leaves the run untraced.
    const untraced: Trajectory = {
      ...run,
      additionalHistories: [{ messages: [{ role: 'assistant', content: 'z' }] }],
    };
    expect((await importanceDiagnostics([untraced], [1], file([]))).traced).toBe(0);
  });

  it('gives ESS = (Σ c w)² / Σ c w² for unequal weights', async () => {
    const d = await importanceDiagnostics(
      items,
      [2, 1, 0, 0],
      file([
        { id: 'a', logprobs: [[-1, -2], [-0.5 + Math.log(4)]] },
        { id: 'b', logprobs: [[-0.1]] },
      ]),
    );
    // w_a = 4, w_b = 1: (2·4 + 1)² / (2·16 + 1) = 81 / 33.
    expect(d.logWeights[0]!.logWeight).toBeCloseTo(Math.log(4), 12);
    expect(d.ess).toBeCloseTo(81 / 33, 12);
    expect(d.essFraction).toBeCloseTo(81 / 33 / 3, 12);
  });

  it('counts a selected traced run missing from the file as traced but not matched', async () => {
    // a and b are selected and traced; only a is in the file; c (count 0) is in the file but not selected.
    const d = await importanceDiagnostics(
      items,
      [2, 1, 0, 5],
      file([
        { id: 'a', logprobs: [[-1, -2], [-0.5]] },
        { id: 'c', logprobs: [[-3]] },
      ]),
    );
    expect(d).toMatchObject({ traced: 2, matched: 1, mismatched: 0 });
    expect(d.logWeights).toEqual([{ id: 'a', logWeight: 0 }]);
    // One matched run of count 2: ESS = (2 w)² / (2 w²) = 2, of 2 selections.
    expect(d.ess).toBeCloseTo(2, 12);
    expect(d.essFraction).toBeCloseTo(1, 12);
    // The versions span the selected runs' turns only: b (5) and c (4), not a (3, count 0).
    const selected = await importanceDiagnostics(items, [0, 1, 1, 0], file([]));
    expect(selected.versions).toEqual({ min: 4, max: 5 });
    expect(selected).toMatchObject({ traced: 2, matched: 0, ess: 0, essFraction: 0 });
  });

  it('keeps the ESS finite and exact when the log weights are far beyond exp overflow', async () => {
    // log w_a = 1000 + ln 4, log w_b = 1000: the same ratio as w = (4, 1), so (2·4 + 1)² / (2·16 + 1).
    const d = await importanceDiagnostics(
      items,
      [2, 1, 0, 0],
      file([
        { id: 'a', logprobs: [[999, -2], [-0.5 + Math.log(4)]] },
        { id: 'b', logprobs: [[-0.1 + 1000]] },
      ]),
    );
    expect(d.ess).toBeCloseTo(81 / 33, 9);
    expect(d.essFraction).toBeCloseTo(81 / 33 / 3, 9);
  });

  it('counts a run whose token counts differ as mismatched, and rejects a malformed line', async () => {
    const d = await importanceDiagnostics(
      items,
      [1, 1, 0, 0],
      file([
        { id: 'a', logprobs: [[-1]] },
        { id: 'b', logprobs: [[-0.1]] },
      ]),
    );
    expect(d).toMatchObject({ matched: 1, mismatched: 1 });
    await expect(importanceDiagnostics(items, [1, 1, 0, 0], file([{ id: 'a' }]))).rejects.toMatchObject({
      code: 'BAD_LINE',
      message: expect.stringMatching(
        /:1: logprobs must be an array of arrays of numbers, got nothing \(the field is missing\)/,
      ),
    });
    await expect(
      importanceDiagnostics(
        items,
        [1, 1, 0, 0],
        file([
          { id: 'a', logprobs: [] },
          { id: 7, logprobs: [] },
        ]),
      ),
    ).rejects.toMatchObject({ message: expect.stringMatching(/:2: id must be a string, got number 7/) });
  });
});
