// The end-to-end tests (`*.e2e.test.ts`): the `test:e2e` task.
export { endToEnd as default } from '../../vitest.shared.ts';
