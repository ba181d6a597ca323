CREATE TABLE "pre_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"phone_number" text NOT NULL,
	"joined_user_id" integer,
	"joined_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pre_invitations" ADD CONSTRAINT "pre_invitations_group_id_customer_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."customer_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_invitations" ADD CONSTRAINT "pre_invitations_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_invitations" ADD CONSTRAINT "pre_invitations_joined_user_id_users_id_fk" FOREIGN KEY ("joined_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pre_invitations_group_phone_uq" ON "pre_invitations" USING btree ("group_id","phone_number");--> statement-breakpoint
CREATE INDEX "pre_invitations_phone_idx" ON "pre_invitations" USING btree ("phone_number");