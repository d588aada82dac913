export * from './pm-error.js';
export * from './tracker-errors.js';
