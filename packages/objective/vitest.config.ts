import { withOwnWorker } from '../../vitest.shared.ts';

// The allocation test runs in a worker of its own (see withOwnWorker).
export default withOwnWorker('objective', 'test/allocation.test.ts');
