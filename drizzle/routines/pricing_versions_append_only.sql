-- Prices are immutable versions (price_versions): a change is a new row, never an edit, so the
-- price in force at any past hour can always be read again.
DROP TRIGGER IF EXISTS price_versions_append_only ON price_versions;
CREATE TRIGGER price_versions_append_only BEFORE UPDATE OR DELETE ON price_versions
  FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();

DROP TRIGGER IF EXISTS price_versions_no_truncate ON price_versions;
CREATE TRIGGER price_versions_no_truncate BEFORE TRUNCATE ON price_versions
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change();
