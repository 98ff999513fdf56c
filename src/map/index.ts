export * from './hosts.js';
export * from './operations.js';
export * from './match.js';
