-- Issue 26, callers kept between requests (server/auth/callers.ts): any committed change to what a request's caller is made of (the user's role, place, guest and active flags, session generation; a brand manager's brands) is announced on the channel 'caller_changed' with the user's id, whoever wrote it (the product, a script, SQL by hand), and every server process forgets that user. NOTIFY is sent at commit, never for a rolled-back change; identical ids in one transaction are sent once.
CREATE FUNCTION "announce_caller_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('caller_changed', (to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END) ->> TG_ARGV[0]));
  IF TG_OP = 'UPDATE' THEN
    PERFORM pg_notify('caller_changed', (to_jsonb(OLD) ->> TG_ARGV[0]));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "users_caller_change" AFTER UPDATE OF "role", "company_id", "brand_id", "branch_id", "is_guest", "is_active", "session_generation" ON "users"
  FOR EACH ROW
  WHEN ((OLD."role", OLD."company_id", OLD."brand_id", OLD."branch_id", OLD."is_guest", OLD."is_active", OLD."session_generation")
    IS DISTINCT FROM (NEW."role", NEW."company_id", NEW."brand_id", NEW."branch_id", NEW."is_guest", NEW."is_active", NEW."session_generation"))
  EXECUTE FUNCTION "announce_caller_change"('id');
--> statement-breakpoint
CREATE TRIGGER "users_caller_gone" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "announce_caller_change"('id');
--> statement-breakpoint
CREATE TRIGGER "brand_managers_caller_change" AFTER INSERT OR UPDATE OR DELETE ON "brand_managers"
  FOR EACH ROW EXECUTE FUNCTION "announce_caller_change"('user_id');
