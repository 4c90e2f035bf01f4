export * from './lifecycle.js';
export { Sync, syncView } from './sync-view.js';
