-- Key and spend controls: expiry and rotation, IP allow-lists, and spend caps
-- per key and per organization, with the spend of the current UTC day and
-- month kept beside the balance (written by the same charge statement, so a
-- cap is checked on the row the charge has locked: exact under concurrency).

ALTER TABLE "api_keys"
  ADD COLUMN "expires_at" TIMESTAMPTZ(3),
  ADD COLUMN "rolled_from_id" UUID,
  ADD COLUMN "rolled_at" TIMESTAMPTZ(3),
  ADD COLUMN "allowed_ips" TEXT[] DEFAULT ARRAY[]::TEXT[],
  ADD COLUMN "daily_cap_nanos" BIGINT,
  ADD COLUMN "monthly_cap_nanos" BIGINT,
  ADD COLUMN "spent_day" DATE,
  ADD COLUMN "spent_day_nanos" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "spent_month" DATE,
  ADD COLUMN "spent_month_nanos" BIGINT NOT NULL DEFAULT 0;

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_rolled_from_id_fkey"
  FOREIGN KEY ("rolled_from_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "organizations"
  ADD COLUMN "daily_cap_nanos" BIGINT,
  ADD COLUMN "monthly_cap_nanos" BIGINT,
  ADD COLUMN "spent_day" DATE,
  ADD COLUMN "spent_day_nanos" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "spent_month" DATE,
  ADD COLUMN "spent_month_nanos" BIGINT NOT NULL DEFAULT 0;

-- The spend so far today and this month (UTC), so a cap set today counts what was already spent.
UPDATE "organizations" o SET
  "spent_day" = (now() AT TIME ZONE 'UTC')::date,
  "spent_day_nanos" = COALESCE((SELECT sum(e."cost_nanos") FROM "usage_events" e
     WHERE e."org_id" = o."id" AND e."created_at" >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), 0),
  "spent_month" = date_trunc('month', now() AT TIME ZONE 'UTC')::date,
  "spent_month_nanos" = COALESCE((SELECT sum(e."cost_nanos") FROM "usage_events" e
     WHERE e."org_id" = o."id" AND e."created_at" >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), 0);

UPDATE "api_keys" k SET
  "spent_day" = (now() AT TIME ZONE 'UTC')::date,
  "spent_day_nanos" = COALESCE((SELECT sum(e."cost_nanos") FROM "usage_events" e
     WHERE e."api_key_id" = k."id" AND e."created_at" >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), 0),
  "spent_month" = date_trunc('month', now() AT TIME ZONE 'UTC')::date,
  "spent_month_nanos" = COALESCE((SELECT sum(e."cost_nanos") FROM "usage_events" e
     WHERE e."api_key_id" = k."id" AND e."created_at" >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), 0);
