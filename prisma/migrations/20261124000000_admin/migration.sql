-- The platform administrators' console: suspension of an organization, keys
-- disabled by the platform (with the reason the customer sees), prices with
-- effective times and their history, the client address of API requests
-- (erased after 30 days), webhook deliveries that failed, and a record of
-- each data load.

-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "suspended_at" TIMESTAMPTZ(3),
ADD COLUMN     "suspended_reason" TEXT;

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "disabled_by_platform" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "disabled_reason" TEXT;

-- AlterTable
ALTER TABLE "usage_events" ADD COLUMN     "client_ip" TEXT;

-- CreateTable
CREATE TABLE "price_changes" (
    "id" BIGSERIAL NOT NULL,
    "endpoint" TEXT NOT NULL,
    "price_per_gb_nanos" BIGINT NOT NULL,
    "effective_at" TIMESTAMPTZ(3) NOT NULL,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "price_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "price_changes_endpoint_effective_at_key" ON "price_changes"("endpoint", "effective_at");

-- A price set before this migration has been in force since it was set.
INSERT INTO "price_changes" ("endpoint", "price_per_gb_nanos", "effective_at", "created_at")
SELECT "endpoint", "price_per_gb_nanos", "updated_at", "updated_at" FROM "endpoint_prices";

-- DropTable
DROP TABLE "endpoint_prices";

-- CreateTable
CREATE TABLE "stripe_event_failures" (
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "error" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "first_failed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_failed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "stripe_event_failures_pkey" PRIMARY KEY ("event_id")
);

-- CreateTable
CREATE TABLE "data_loads" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "counts" JSONB NOT NULL DEFAULT '{}',
    "errors" JSONB NOT NULL DEFAULT '[]',
    "error_count" INTEGER NOT NULL DEFAULT 0,
    "duration_ms" INTEGER NOT NULL,
    "actor_user_id" UUID,
    "actor_label" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "data_loads_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "data_loads_finished_at_idx" ON "data_loads"("finished_at");
