import { main } from './cli/main.js';

// A closed pipe (`ftw train --help | head`) is not an error of the run.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv);
