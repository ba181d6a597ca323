CREATE TABLE "brand_managers" (
	"user_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brand_managers_user_id_brand_id_pk" PRIMARY KEY("user_id","brand_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "brand_managers" ADD CONSTRAINT "brand_managers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_managers" ADD CONSTRAINT "brand_managers_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "brand_managers_brand_idx" ON "brand_managers" USING btree ("brand_id");--> statement-breakpoint
-- Every existing brand manager manages their default brand.
INSERT INTO "brand_managers" ("user_id", "brand_id") SELECT "id", "brand_id" FROM "users" WHERE "role" = 'BRAND_MANAGER' AND "brand_id" IS NOT NULL ON CONFLICT DO NOTHING;
