// The runner's streams live beside the packages' seeded uniform in @ftw/internal (bundled into the CLI),
// the one place that holds the project's seeded generators; this module keeps the runner's import path.
export { type SeededStreams, seededStreams } from '@ftw/internal/seeded-streams';
