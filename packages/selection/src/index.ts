export { EliteSampler, type Minibatch } from './elite-sampler.js';
export { expectedCounts } from './expected-counts.js';
export { monteCarloOccupancy } from './monte-carlo-occupancy.js';
export type { IntegerGenerator, RandomSource } from './random.js';
export { rankOccupancy } from './rank-occupancy.js';
export { type EliteSelection, selectElites } from './select-elites.js';
export type { SelectionOptions } from './selection-options.js';
