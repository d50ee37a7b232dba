-- Sessions the server can end: sign-out, a password change, "sign out of all
-- other sessions" and a platform lock revoke them here; the session cookie
-- names its row and every request checks it.

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "locked_at" TIMESTAMPTZ(3),
ADD COLUMN     "locked_reason" TEXT;

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Refunds and disputes together never take back more than was credited; a
-- completed checkout whose amount or currency differs from the session we
-- created is held back (not credited) for a platform administrator.
ALTER TYPE "checkout_status" ADD VALUE 'HELD';

ALTER TABLE "stripe_checkout_sessions" ADD COLUMN     "taken_back_cents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "held_reason" TEXT;

-- What refunds and disputes had already taken back before this column existed:
-- refunds as recorded, disputes from their audit entries (net of disputes won).
UPDATE "stripe_checkout_sessions" AS s
   SET "taken_back_cents" = LEAST(s."amount_cents", GREATEST(0, s."refunded_cents" + COALESCE((
         SELECT SUM(CASE a."action" WHEN 'credits.disputed' THEN 1 ELSE -1 END * COALESCE((a."details"->>'amount_cents')::int, 0))
           FROM "audit_logs" a
          WHERE a."target_type" = 'stripe_checkout_session' AND a."target_id" = s."id"
            AND a."action" IN ('credits.disputed', 'credits.dispute_won')), 0)))
 WHERE s."credited_at" IS NOT NULL;
