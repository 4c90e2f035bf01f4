-- touch_updated_at() is defined in 00_platform_touch_updated_at.sql, which sorts first.
DROP TRIGGER IF EXISTS admins_touch_updated_at ON admins;
CREATE TRIGGER admins_touch_updated_at BEFORE UPDATE ON admins
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
