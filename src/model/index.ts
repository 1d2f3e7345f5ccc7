export * from './address.js';
export * from './diagnostics.js';
export * from './errors.js';
export * from './lockfile.js';
export * from './plan.js';
export * from './resources.js';
export * from './sizes.js';
export * from './rfc3339.js';
