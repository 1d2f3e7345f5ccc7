export * from './types.js';
export * from './walk.js';
export * from './values.js';
export * from './common.js';
export * from './wire.js';
export * from './shared-fields.js';
