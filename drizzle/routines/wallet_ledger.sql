-- The wallet ledger (balance_logs) is append-only: corrections are new entries, never edits.
DROP TRIGGER IF EXISTS balance_logs_no_update_delete ON balance_logs;
CREATE TRIGGER balance_logs_no_update_delete BEFORE UPDATE OR DELETE ON balance_logs
  FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();

DROP TRIGGER IF EXISTS balance_logs_no_truncate ON balance_logs;
CREATE TRIGGER balance_logs_no_truncate BEFORE TRUNCATE ON balance_logs
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change();

DROP FUNCTION IF EXISTS balance_logs_append_only();

DROP TRIGGER IF EXISTS wallets_touch_updated_at ON wallets;
CREATE TRIGGER wallets_touch_updated_at BEFORE UPDATE ON wallets
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

-- The ledger is partitioned by month, and a partitioned table's unique index must contain the
-- partition key: the (type, reference) key of every entry is claimed in balance_log_references
-- first, and an entry whose key is claimed already is skipped (returned by no RETURNING), which is
-- what ON CONFLICT DO NOTHING did with the unique index, whatever month the first entry is in.
CREATE OR REPLACE FUNCTION balance_logs_claim_reference() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balance_log_references (type, reference_type, reference_id)
  VALUES (NEW.type, NEW.reference_type, NEW.reference_id)
  ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END;
$$;

DROP TRIGGER IF EXISTS balance_logs_claim_reference ON balance_logs;
CREATE TRIGGER balance_logs_claim_reference BEFORE INSERT ON balance_logs
  FOR EACH ROW EXECUTE FUNCTION balance_logs_claim_reference();
