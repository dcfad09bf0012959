/** The migration write command's modules: what the GETs say, what to do about it, and doing it. */
export * from './facts.js';
export * from './plan.js';
export * from './apply.js';
export * from './confirm-rows.js';
