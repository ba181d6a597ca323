CREATE TABLE "brand_address_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"brand_id" integer NOT NULL,
	"field_name" text NOT NULL,
	"label" text NOT NULL,
	"is_required" boolean DEFAULT false NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "brand_address_fields" ADD CONSTRAINT "brand_address_fields_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "brand_address_fields_uq" ON "brand_address_fields" USING btree ("brand_id","field_name");--> statement-breakpoint
CREATE UNIQUE INDEX "branch_schedules_day_uq" ON "branch_schedules" USING btree ("branch_id","day_of_week");