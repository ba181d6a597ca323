-- Issue 21: one row per refund of a payment, written in the transaction of the lifecycle change that decides it (server/payments/refunds.ts); the provider is called after commit by the refund worker.
CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"payment_id" integer,
	"refund_request_id" integer,
	"provider" text NOT NULL,
	"amount" numeric(12, 3) NOT NULL,
	"currency" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"cause" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_refund_ref" text,
	"provider_status" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"retries" integer DEFAULT 0 NOT NULL,
	"last_message" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retried_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_refund_request_id_refund_requests_id_fk" FOREIGN KEY ("refund_request_id") REFERENCES "public"."refund_requests"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_retried_by_users_id_fk" FOREIGN KEY ("retried_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_order_cause_uq" ON "refunds" USING btree ("order_id","cause");
--> statement-breakpoint
CREATE INDEX "refunds_due_idx" ON "refunds" USING btree ("next_attempt_at") WHERE "status" = 'pending';
--> statement-breakpoint
-- Money taken before refunds were automatic and never given back: a paid order that was rejected, or whose refund request was approved (only the sandbox and cash existed, and approval called no provider). Each gets its refund row as failed, with the reason, so staff check and press Retry: nothing is sent to a provider by itself for the past.
INSERT INTO "refunds" ("order_id", "payment_id", "refund_request_id", "provider", "amount", "currency", "reason", "cause", "status", "last_message")
SELECT o."id",
	(SELECT p."id" FROM "payments" p WHERE p."order_id" = o."id" AND p."status" = 'paid' ORDER BY p."id" DESC LIMIT 1),
	rr."id",
	coalesce((SELECT p."provider" FROM "payments" p WHERE p."order_id" = o."id" AND p."status" = 'paid' ORDER BY p."id" DESC LIMIT 1), ps."provider"),
	CASE WHEN o."status" = 'rejected' THEN o."total" ELSE least(rr."amount", o."total") END,
	c."code",
	CASE WHEN o."status" = 'rejected' THEN coalesce(o."status_reason", '') ELSE coalesce(rr."reason", '') END,
	CASE WHEN rr."id" IS NOT NULL THEN 'refundRequest' WHEN o."status_reason" = 'Not accepted in time' THEN 'deadline' ELSE 'rejected' END,
	CASE WHEN ps."provider" = 'cash' THEN 'owed' ELSE 'failed' END,
	CASE WHEN ps."provider" = 'cash' THEN NULL ELSE 'Paid before refunds were automatic: check with the provider that it was not refunded by hand, then retry.' END
FROM "orders" o
JOIN "payment_systems" ps ON ps."id" = o."payment_system_id"
JOIN "brands" b ON b."id" = o."brand_id"
JOIN "currencies" c ON c."id" = b."currency_id"
LEFT JOIN LATERAL (SELECT r."id", r."amount", r."reason" FROM "refund_requests" r WHERE r."order_id" = o."id" AND r."status" = 'approved' ORDER BY r."id" DESC LIMIT 1) rr ON o."refund" = 'approved'
WHERE o."payment" = 'paid' AND (o."status" = 'rejected' OR o."refund" = 'approved') AND o."total" > 0;
