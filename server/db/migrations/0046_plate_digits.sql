-- Car plates as typed in Arabic-Indic ('٢٣/٤٥٦٧٨') or Persian digits are the plate in ASCII digits ('23/45678'):
-- the rule of domain/digits.ts normalisePlate (ASCII digits, trimmed, single spaces, capitals). A customer's
-- plate saved twice is one car: orders that named a duplicate name the kept (oldest) car, and the duplicate goes.
UPDATE "customer_cars" SET "plate_number" = upper(regexp_replace(btrim(translate("plate_number", '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789')), '\s+', ' ', 'g'));--> statement-breakpoint
UPDATE "orders" SET "car_id" = k."keep" FROM (SELECT "id", min("id") OVER (PARTITION BY "user_id", "plate_number") AS "keep" FROM "customer_cars") k WHERE "orders"."car_id" = k."id" AND k."id" <> k."keep";--> statement-breakpoint
DELETE FROM "customer_cars" c USING "customer_cars" k WHERE k."user_id" = c."user_id" AND k."plate_number" = c."plate_number" AND k."id" < c."id";--> statement-breakpoint
CREATE UNIQUE INDEX "customer_cars_user_plate_uq" ON "customer_cars" USING btree ("user_id","plate_number");
