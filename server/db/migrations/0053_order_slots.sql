-- Issue 25: the order's time (scheduled_for: the time the customer asked for, null = as soon as possible; order_time: the time it is for, domain/orderTime.ts), and capacity per time slot.
ALTER TABLE "orders" ADD COLUMN "scheduled_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "order_time" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_branch_mode_time_idx" ON "orders" ("branch_id", "delivery_system", "order_time");--> statement-breakpoint
-- Per branch and mode: the slot length (minutes) and the most orders a slot takes (null = no limit); per branch: the most orders in progress (accepted + ready; null = no limit).
ALTER TABLE "branches" ADD COLUMN "pickup_slot_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "pickup_slot_max" integer;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "car_service_slot_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "car_service_slot_max" integer;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "delivery_slot_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "delivery_slot_max" integer;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "in_progress_max" integer;--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_slot_minutes_check" CHECK ("pickup_slot_minutes" BETWEEN 5 AND 120 AND "car_service_slot_minutes" BETWEEN 5 AND 120 AND "delivery_slot_minutes" BETWEEN 5 AND 120);--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_slot_max_check" CHECK (coalesce("pickup_slot_max", 1) BETWEEN 1 AND 10000 AND coalesce("car_service_slot_max", 1) BETWEEN 1 AND 10000 AND coalesce("delivery_slot_max", 1) BETWEEN 1 AND 10000 AND coalesce("in_progress_max", 1) BETWEEN 1 AND 10000);--> statement-breakpoint
-- One row per slot that was locked for a placement or closed by the branch: placements lock it (the count itself is read from the orders under the lock).
CREATE TABLE "order_slots" (
	"id" serial PRIMARY KEY NOT NULL,
	"branch_id" integer NOT NULL REFERENCES "branches"("id"),
	"mode" text NOT NULL,
	"slot_start" timestamp with time zone NOT NULL,
	"closed" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "order_slots_branch_mode_start_uq" ON "order_slots" ("branch_id", "mode", "slot_start");
