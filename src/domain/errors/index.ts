export * from './pm-error.js';
export * from './tracker-errors.js';
export * from './mcp-errors.js';
export * from './storage-error.js';
export * from './remedy.js';
