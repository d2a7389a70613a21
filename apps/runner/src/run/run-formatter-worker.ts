// The worker thread of startRunFormatting (run-formatting.ts): a RunFormatter fed by messages. Built as
// its own entry point (dist/run-formatter-worker.js), beside the CLI's chunks.
import { parentPort, workerData } from 'node:worker_threads';
import { decodeRows } from './row-batch.js';
import { RunFormatter } from './run-formatter.js';
import type { FormatterReply, FormatterRequest } from './run-formatting.js';

const port = parentPort;
if (port === null) throw new Error('run-formatter-worker.js runs as a worker thread, not as a script');

const formatter = new RunFormatter(workerData as ConstructorParameters<typeof RunFormatter>[0]);
/** The first failure of a batch, reported when the run is finished (the thread is not asked before). */
let failure: unknown;

function describe(error: unknown): FormatterReply {
  return error instanceof Error
    ? { kind: 'error', message: error.message, stack: error.stack }
    : { kind: 'error', message: String(error) };
}

port.on('message', (request: FormatterRequest) => {
  if (request.kind === 'rows' || request.kind === 'batch') {
    if (failure !== undefined) return;
    try {
      formatter.add(request.kind === 'rows' ? request.rows : decodeRows(request.batch));
    } catch (error) {
      failure = error;
    }
    return;
  }
  if (failure !== undefined) {
    port.postMessage(describe(failure));
    return;
  }
  try {
    const { metrics, page } = formatter.finish(request.page);
    const reply: FormatterReply = { kind: 'formatted', metrics, page };
    const transfer = [metrics.buffer as ArrayBuffer];
    if (page !== null) transfer.push(page.buffer as ArrayBuffer);
    port.postMessage(reply, transfer);
  } catch (error) {
    port.postMessage(describe(error));
  }
});
