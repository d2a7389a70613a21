import { main } from './cli/main.js';

process.exitCode = await main(process.argv);
