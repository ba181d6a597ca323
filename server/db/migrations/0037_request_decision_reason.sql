-- Issue 20 "Four eyes on every grant": a reject's reason is stored; points become a request account; a grant made through a direct adjustment call by someone below ADMIN is a request whose client key makes a retry ask once.
ALTER TABLE "customer_requests" ADD COLUMN "decision_reason" text;--> statement-breakpoint
ALTER TABLE "customer_requests" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_requests_idempotency_key_uq" ON "customer_requests" USING btree ("idempotency_key");--> statement-breakpoint
ALTER TABLE "customer_requests" DROP CONSTRAINT "customer_requests_account_ck";--> statement-breakpoint
ALTER TABLE "customer_requests" ADD CONSTRAINT "customer_requests_account_ck" CHECK ("customer_requests"."account" in ('points', 'punches', 'freeItems', 'wallet', 'credit'));--> statement-breakpoint
ALTER TABLE "customer_requests" ADD CONSTRAINT "customer_requests_decision_reason_ck" CHECK ("customer_requests"."decision_reason" is null or char_length("customer_requests"."decision_reason") between 1 and 500);--> statement-breakpoint
-- NOT VALID: self-decided requests from before the rule stay as history; every row written from now on is checked.
ALTER TABLE "customer_requests" ADD CONSTRAINT "customer_requests_not_own_ck" CHECK ("customer_requests"."decided_by" is null or "customer_requests"."requested_by" is null or "customer_requests"."decided_by" <> "customer_requests"."requested_by") NOT VALID;
