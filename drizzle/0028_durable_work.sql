ALTER TABLE "webhook_deliveries" DROP COLUMN "queued_at";--> statement-breakpoint
-- The pg-boss queue of the webhook attempts before the deliveries table became their queue: no job
-- is sent to it any more. pg-boss keeps a queue until it is deleted; its schema exists only once
-- pg-boss has started on this database.
DO $$
DECLARE
  present boolean;
BEGIN
  IF to_regclass('pgboss.queue') IS NULL THEN
    RETURN;
  END IF;
  EXECUTE 'SELECT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = $1)' INTO present USING 'webhooks-deliver';
  IF present THEN
    EXECUTE 'DELETE FROM pgboss.job WHERE name = $1' USING 'webhooks-deliver';
    EXECUTE 'SELECT pgboss.delete_queue($1)' USING 'webhooks-deliver';
  END IF;
END $$;
