-- The dataset's version: every import or sync that writes bumps it in its own
-- transaction, so each instance's cache of API response bodies sees within a
-- second that it is stale.

-- CreateTable
CREATE TABLE "dataset_versions" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dataset_versions_pkey" PRIMARY KEY ("id")
);

INSERT INTO "dataset_versions" ("id") VALUES (1);
