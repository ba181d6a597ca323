-- Issue 26, a live feed that resumes: every order event is a row here (server/events/pgOrderEvents.ts). NOTIFY on channel order_events only wakes the processes (it carries the id); each reads the rows after the last it delivered, and a subscriber that reconnects, to any process, resumes after its last event id from this table. Append-only; rows older than a day are pruned (a resume from before that falls back to the lists' CreatedAfterId catch-up). No foreign keys: an event names its order, branch and brand as they were, and any event type is carried as it is (payload: anything else the event says).
CREATE TABLE "order_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"order_id" integer NOT NULL,
	"branch_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "order_events_at_idx" ON "order_events" USING btree ("at");
