-- Issue 25: an order for later reaches the kitchen at its fire time (scheduled → pending, server/orders/fire.ts); fired_at is when it did. The acceptance deadline counts from it.
ALTER TABLE "orders" ADD COLUMN "fired_at" timestamp with time zone;--> statement-breakpoint
-- The job runner's scan for orders whose fire time has come: only the orders still waiting for it.
CREATE INDEX "orders_scheduled_for_idx" ON "orders" ("scheduled_for") WHERE "status" = 'scheduled';
