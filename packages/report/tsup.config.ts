import { defineConfig, type Options } from 'tsup';
import shared from '../../tsup.config.ts';
import { VIEW_CLIENT_BUILD } from './view-client.tsup.ts';

// The package's entry points (the shared build: ESM + CommonJS + declarations), and the script of the
// `ftw view` page, a browser IIFE (view-client.tsup.ts). Both builds write dist/ at once: the first must
// not delete the page script. `import.meta.url` (where pageAssets looks for the script) is shimmed in the
// CommonJS build.
export default defineConfig([
  { ...(shared as Options), clean: ['!view-client.js'], shims: true },
  VIEW_CLIENT_BUILD,
]);
