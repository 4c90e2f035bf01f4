-- Usage records and the per customer-hour charges are append-only: what was charged stays as it was.
DROP TRIGGER IF EXISTS usage_records_no_update_delete ON usage_records;
CREATE TRIGGER usage_records_no_update_delete BEFORE UPDATE OR DELETE ON usage_records
  FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();

DROP TRIGGER IF EXISTS usage_charges_no_update_delete ON usage_charges;
CREATE TRIGGER usage_charges_no_update_delete BEFORE UPDATE OR DELETE ON usage_charges
  FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
