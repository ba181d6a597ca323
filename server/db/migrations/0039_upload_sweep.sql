-- Issue 20: uploaded images not yet known to be attached to a record; the sweep (server/services/files/sweep.ts) removes those a day old that no record refers to.
CREATE TABLE "uploads" (
	"key" text PRIMARY KEY NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "uploads_uploaded_at_idx" ON "uploads" USING btree ("uploaded_at");
