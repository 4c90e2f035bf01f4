-- Every customer is the owner of its own account: whoever inserts a customers row (registration,
-- staff, a test factory), its owner membership is written in the same statement's transaction.
CREATE OR REPLACE FUNCTION members_own_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_members (account_id, customer_id, role, created_at, updated_at)
  VALUES (NEW.id, NEW.id, 'owner', NEW.created_at, NEW.created_at)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS members_own_account ON customers;
CREATE TRIGGER members_own_account AFTER INSERT ON customers FOR EACH ROW EXECUTE FUNCTION members_own_account();
