-- A delivery whose webhook endpoint was deleted is cancelled: never sent, never retried.
ALTER TABLE "notification_deliveries" DROP CONSTRAINT "notification_deliveries_status_check";
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed', 'cancelled'));

-- Deliveries of endpoints deleted before this rule, still queued or marked failed by the deletion, are cancelled now.
UPDATE "notification_deliveries" d SET "status" = 'cancelled', "locked_until" = NULL, "last_error" = 'the endpoint was deleted'
  FROM "webhook_endpoints" e
 WHERE d."endpoint_id" = e."id" AND e."deleted_at" IS NOT NULL
   AND (d."status" = 'pending' OR (d."status" = 'failed' AND d."last_error" = 'the endpoint was deleted'));
