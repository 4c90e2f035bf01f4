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
