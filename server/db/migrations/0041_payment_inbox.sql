-- Issue 21: what the provider said about each online payment (MyFatoorah, Tap), for the receipt and the reconciliation view (server/payments/settle.ts).
ALTER TABLE "payments" ADD COLUMN "provider_payment_id" text;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "track_id" text;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "result" text;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "paid_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checked_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "next_check_at" timestamp with time zone;
--> statement-breakpoint
-- A provider's callback names its own id (the part of provider_ref before '~', server/payments/gateway.ts).
CREATE INDEX "payments_provider_key_idx" ON "payments" USING btree ("provider", split_part("provider_ref", '~', 1));
--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("created_at") WHERE "status" = 'pending';
--> statement-breakpoint
-- Every provider callback, once per (provider, event key): a retried callback finds its row and changes nothing.
CREATE TABLE "payment_inbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_key" text NOT NULL,
	"provider_ref" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_inbox_event_uq" ON "payment_inbox" USING btree ("provider","event_key");
--> statement-breakpoint
CREATE INDEX "payment_inbox_due_idx" ON "payment_inbox" USING btree ("next_attempt_at") WHERE "processed_at" IS NULL;
--> statement-breakpoint
-- The payment methods of the two gateways; a brand switches them on (BrandPayment), and the shop offers them only while the gateway is configured (server/payments/index.ts).
INSERT INTO "payment_systems" ("id", "name", "name_ar", "provider", "is_card") VALUES
	(4, 'KNET (MyFatoorah)', 'كي نت (ماي فاتورة)', 'myfatoorah:knet', false),
	(5, 'Card (MyFatoorah)', 'بطاقة (ماي فاتورة)', 'myfatoorah:card', true),
	(6, 'KNET (Tap)', 'كي نت (تاب)', 'tap:knet', false),
	(7, 'Card (Tap)', 'بطاقة (تاب)', 'tap:card', true)
ON CONFLICT ("id") DO NOTHING;
