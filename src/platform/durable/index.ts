export { doubling, every, steps, type Backoff } from './backoff.js';
export { leaseFree, leaseLive, leaseRanOut } from './lease.js';
export { afterFailure, definePolicy, leaseEnd, lostBefore, settleFailure, type AfterFailure, type DurablePolicy, type GiveUpReason } from './policy.js';
export { defineSweepJob } from './sweep.js';
