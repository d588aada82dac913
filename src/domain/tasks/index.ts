/**
 * Durable tasks (`io.modelcontextprotocol/tasks`, SEP-2663; seed 004 "MRTR, tasks, and cache
 * behavior"): the task state machine, the service that stores, runs, reads and cancels tasks
 * over the TaskStore and TaskWorkers ports, and the extension that plugs them into the server.
 */
export * from './task-lifecycle.js';
export * from './task-service.js';
export * from './tasks-extension.js';
