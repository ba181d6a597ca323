-- Issue 25: per branch, whether a new order is accepted at once (auto-accept, off by default), and how long a pending order waits before the server rejects it (was one 10-minute constant).
ALTER TABLE "branches" ADD COLUMN "auto_accept" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "acceptance_deadline_minutes" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_acceptance_deadline_minutes_check" CHECK ("acceptance_deadline_minutes" BETWEEN 3 AND 30);
