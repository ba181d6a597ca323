-- Issue 25: kitchen printers that poll the server (Star CloudPRNT, Epson Server Direct Print), and their print jobs, one per (order, printer, kind).
CREATE TABLE "printers" (
	"id" serial PRIMARY KEY NOT NULL,
	"branch_id" integer NOT NULL REFERENCES "branches"("id"),
	"name" text NOT NULL,
	"protocol" text NOT NULL CONSTRAINT "printers_protocol_check" CHECK ("protocol" IN ('starCloudPrnt', 'epsonServerDirect')),
	"token" text NOT NULL,
	"product_type_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"last_polled_at" timestamp with time zone,
	"last_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "printers_token_uq" ON "printers" USING btree ("token");--> statement-breakpoint
CREATE INDEX "printers_branch_idx" ON "printers" USING btree ("branch_id");--> statement-breakpoint
CREATE TABLE "print_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"printer_id" integer NOT NULL REFERENCES "printers"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL CONSTRAINT "print_jobs_status_check" CHECK ("status" IN ('pending', 'done')),
	"requested_by" integer REFERENCES "users"("id"),
	"fetch_count" integer DEFAULT 0 NOT NULL,
	"fetched_at" timestamp with time zone,
	"result_code" text,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "print_jobs_order_printer_kind_uq" ON "print_jobs" USING btree ("order_id", "printer_id", "kind");--> statement-breakpoint
CREATE INDEX "print_jobs_pending_idx" ON "print_jobs" USING btree ("printer_id", "id") WHERE "status" = 'pending';
