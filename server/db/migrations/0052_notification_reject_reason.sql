ALTER TABLE "notification_requests" ADD COLUMN "decision_reason" text;
