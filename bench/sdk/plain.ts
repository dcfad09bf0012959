import { runScript } from './read-organisation.js';

// The script a user writes first: one zone after another, and the SDK as it comes (no per_page, so
// each list's server default; 2 retries; 60 s timeout).
await runScript({ concurrency: 1, perPage: {} });
