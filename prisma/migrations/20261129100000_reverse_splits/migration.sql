-- Reverse stock splits (issue 26): one row per split, the filing that states
-- it and its quotes; served by /v1/reverse-splits.
CREATE TABLE "reverse_splits" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "company_id" UUID NOT NULL,
    "effective_date" DATE NOT NULL,
    "old_shares" INTEGER NOT NULL,
    "new_shares" INTEGER NOT NULL DEFAULT 1,
    "quotes" JSONB,
    "source_accession" TEXT,
    "source_form" TEXT,
    "source_filed_at" DATE,
    "source_url" TEXT,
    CONSTRAINT "reverse_splits_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "reverse_splits_company_id_effective_date_key" ON "reverse_splits"("company_id", "effective_date");

ALTER TABLE "reverse_splits" ADD CONSTRAINT "reverse_splits_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The default plans reach every endpoint the catalog puts in them (lib/billing/plans.ts):
-- the new endpoint joins them, as a fresh database would have it. An edited plan keeps its edits
-- otherwise, and a key restricted to named endpoints stays restricted.
UPDATE "plans" SET "allowed_endpoints" = array_append("allowed_endpoints"::TEXT[], 'reverse-splits')
WHERE "slug" IN ('trial', 'retail', 'enterprise') AND NOT ('reverse-splits' = ANY("allowed_endpoints"::TEXT[]));
