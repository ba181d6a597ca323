-- Issue 27: one row per code sent through a real SMS provider (Unifonic, Twilio): its id there, status (delivery receipts move it) and cost.
CREATE TABLE "sms_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"outbox_id" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_id" text,
	"status" text DEFAULT 'sending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"cost" numeric(12, 5),
	"currency" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sms_sends" ADD CONSTRAINT "sms_sends_outbox_id_sms_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."sms_outbox"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "sms_sends_outbox_uq" ON "sms_sends" USING btree ("outbox_id");
--> statement-breakpoint
CREATE INDEX "sms_sends_provider_id_idx" ON "sms_sends" USING btree ("provider","provider_id");
--> statement-breakpoint
CREATE INDEX "sms_sends_created_idx" ON "sms_sends" USING btree ("created_at");
--> statement-breakpoint
-- The SMS pumping circuit breaker (server/limits/smsGuard.ts): one row; sending pauses while paused_at is set.
CREATE TABLE "sms_guard" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"paused_at" timestamp with time zone,
	"reason" text,
	"resumed_at" timestamp with time zone,
	"resumed_by" integer,
	CONSTRAINT "sms_guard_one_row" CHECK ("id" = 1)
);
--> statement-breakpoint
ALTER TABLE "sms_guard" ADD CONSTRAINT "sms_guard_resumed_by_users_id_fk" FOREIGN KEY ("resumed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "sms_guard" ("id") VALUES (1);
--> statement-breakpoint
-- Web push (server/notify): when a subscription last took a push; none in 60 days and it is pruned.
ALTER TABLE "push_subscriptions" ADD COLUMN "last_success_at" timestamp with time zone;
--> statement-breakpoint
-- An order's status notice (accepted, ready, rejected, refunded): pushed with the order's topic; one per order and status.
ALTER TABLE "notifications" ADD COLUMN "order_id" integer;
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "order_status" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_order_status_uq" ON "notifications" USING btree ("order_id","order_status") WHERE "order_id" is not null;
