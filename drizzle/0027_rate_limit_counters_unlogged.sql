-- Rate-limit counters are counts of the current minute: losing them in a crash only restarts the
-- window. Unlogged, their per-request upsert writes no WAL and its commit waits for no fsync.
ALTER TABLE "rate_limit_counters" SET UNLOGGED;
