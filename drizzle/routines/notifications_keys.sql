-- Notifications are partitioned by month, so the key that makes one business event notify a
-- customer once, (customer, kind, reference), lives in notification_keys: a notification whose
-- key is claimed already is skipped, as ON CONFLICT DO NOTHING did with the unique index.
CREATE OR REPLACE FUNCTION notifications_claim_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notification_keys (customer_id, kind, reference_type, reference_id)
  VALUES (NEW.customer_id, NEW.kind, NEW.reference_type, NEW.reference_id)
  ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END;
$$;

DROP TRIGGER IF EXISTS notifications_claim_key ON notifications;
CREATE TRIGGER notifications_claim_key BEFORE INSERT ON notifications
  FOR EACH ROW EXECUTE FUNCTION notifications_claim_key();
