CREATE TABLE "catalog_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "catalog_version" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Runs at commit (a deferred constraint trigger), so the version row is locked last: two catalog
-- edits can wait on each other for it but never deadlock over it.
CREATE FUNCTION "catalog_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "catalog_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['companies', 'currencies', 'brands', 'branches', 'branch_schedules', 'brand_payments', 'payment_systems', 'taxes',
    'product_types', 'product_subtypes', 'products', 'product_addition_groups', 'option_groups', 'option_items',
    'branch_hidden_products', 'branch_hidden_options'] LOOP
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR DELETE ON %I DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "catalog_changed"()', t || '_catalog_added', t);
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER UPDATE ON %I DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "catalog_changed"()', t || '_catalog_changed', t);
  END LOOP;
END;
$$;
