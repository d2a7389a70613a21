// Regenerates trajectory.schema.json from the zod schema (run `pnpm build` first). A test checks that the
// committed file equals what trajectoryJsonSchema() returns.
import { writeFileSync } from 'node:fs';
import { trajectoryJsonSchema } from '../dist/index.js';

writeFileSync(
  new URL('../trajectory.schema.json', import.meta.url),
  `${JSON.stringify(trajectoryJsonSchema(), null, 2)}\n`,
);
