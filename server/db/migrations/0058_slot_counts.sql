-- Issue 25: a slot's orders are counted on its row (server/orders/slots.ts takePlace), so a placement's check costs the same in an empty slot and a full one. "taken" is the slot's orders with every status but rejected; null means "not kept now": the next placement with a limit counts them from the orders once, under the row's lock (this is the backfill, for every existing row and for any row made without a count).
ALTER TABLE "order_slots" ADD COLUMN "taken" integer;--> statement-breakpoint
-- A new slot length or maximum of a branch re-reads its orders into the new grid: its kept counts are dropped and counted again at the next placement. Slots that began more than a day ago take no more orders and are left as they are.
CREATE FUNCTION "order_slots_settings_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "order_slots" SET "taken" = NULL WHERE "branch_id" = NEW."id" AND "taken" IS NOT NULL AND "slot_start" > now() - interval '1 day';
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "branches_slot_settings_changed" AFTER UPDATE OF "pickup_slot_minutes", "pickup_slot_max", "car_service_slot_minutes", "car_service_slot_max", "delivery_slot_minutes", "delivery_slot_max" ON "branches"
  FOR EACH ROW WHEN ((OLD."pickup_slot_minutes", OLD."pickup_slot_max", OLD."car_service_slot_minutes", OLD."car_service_slot_max", OLD."delivery_slot_minutes", OLD."delivery_slot_max")
    IS DISTINCT FROM (NEW."pickup_slot_minutes", NEW."pickup_slot_max", NEW."car_service_slot_minutes", NEW."car_service_slot_max", NEW."delivery_slot_minutes", NEW."delivery_slot_max"))
  EXECUTE FUNCTION "order_slots_settings_changed"();
