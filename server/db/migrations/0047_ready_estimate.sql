-- Issue 24: the ready-time estimate (domain/readyEstimate.ts). A branch's usual preparation time, and the time an order was expected to be ready when it was placed (its preparation time plus the branch's announced delay then), shown at checkout and on the tracker.
ALTER TABLE "branches" ADD COLUMN "preparation_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_preparation_minutes_check" CHECK ("preparation_minutes" BETWEEN 1 AND 240);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ready_estimate_at" timestamp with time zone;
