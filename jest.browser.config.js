/**
 * The browser tests of the MCP Apps views (npm run test:browser; docs/APPS.md): the same jest
 * setup as the main suite, over test/browser only. They need a system Chromium
 * (scripts/install-chromium.sh).
 */
import base from './jest.config.js';

export default {
  ...base,
  testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 60000,
};
